import type { KafkaMessage } from 'kafkajs';
import { fromKafkaMessage, nextOffset, notBeforeHeader, toKafkaMessage } from './kafka-messages';

describe('Kafka records', () => {
  it('carries notBefore in a header and gives it back as a field', () => {
    const outgoing = toKafkaMessage({ key: 'webhook-1', value: 'body', headers: { 'event-type': 'scan.completed' }, notBefore: 1_700_000_000_000 });
    expect(outgoing.headers).toEqual({ 'event-type': 'scan.completed', [notBeforeHeader]: '1700000000000' });

    const record = {
      key: Buffer.from('webhook-1'),
      value: Buffer.from('body'),
      headers: { 'event-type': Buffer.from('scan.completed'), [notBeforeHeader]: Buffer.from('1700000000000'), repeated: [Buffer.from('1'), Buffer.from('2')] },
      offset: '41',
      timestamp: '1699999999000',
      attributes: 0,
      size: 0,
    } as unknown as KafkaMessage;
    expect(fromKafkaMessage('webhook-retry-1m', 3, record)).toEqual({
      topic: 'webhook-retry-1m',
      partition: 3,
      offset: '41',
      key: 'webhook-1',
      value: 'body',
      headers: { 'event-type': 'scan.completed', repeated: '2' },
      notBefore: 1_700_000_000_000,
      timestamp: 1_699_999_999_000,
    });
  });

  it('leaves notBefore out when the message had none, and commits the offset after the handled one', () => {
    expect(toKafkaMessage({ key: 'k', value: 'v' }).headers).toEqual({});
    expect(nextOffset('9007199254740993')).toBe('9007199254740994');
  });
});
