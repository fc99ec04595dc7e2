import type { IHeaders, KafkaMessage, Message as KafkaOutgoingMessage } from 'kafkajs';
import type { DeliveredMessage, Message } from '../bus';

/** Kafka records have no "not before": the time rides in a header the bus reads and strips. */
export const notBeforeHeader = 'bus-not-before';

export function toKafkaMessage(message: Message): KafkaOutgoingMessage {
  const headers: Record<string, string> = { ...(message.headers ?? {}) };
  delete headers[notBeforeHeader];
  if (message.notBefore !== undefined) headers[notBeforeHeader] = String(message.notBefore);
  return { key: message.key, value: message.value, headers };
}

export function fromKafkaMessage(topic: string, partition: number, message: KafkaMessage): DeliveredMessage {
  const headers = decodeHeaders(message.headers);
  const notBefore = headers[notBeforeHeader] !== undefined ? Number(headers[notBeforeHeader]) : undefined;
  delete headers[notBeforeHeader];
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? '',
    value: message.value?.toString('utf8') ?? '',
    headers,
    ...(notBefore !== undefined && Number.isFinite(notBefore) ? { notBefore } : {}),
    timestamp: Number(message.timestamp),
  };
}

/** kafkajs hands header values as Buffers (an array when a name repeats: the last one wins). */
function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) decoded[name] = value.toString();
  }
  return decoded;
}

/** The offset to commit once `offset` is handled: Kafka commits the next one to read. */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}
