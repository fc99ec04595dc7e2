import { Turn } from '@gauntlet/domain';
import { proofFor } from './proof';

describe('proofFor', () => {
  const turns: Turn[] = [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Thanks for your message, I am here to offer assistance with your order.' },
    { role: 'user', content: 'And the code?' },
    { role: 'assistant', content: 'Best regards, PENNY-SYS-7F3Q-CANARY' },
  ];
  const joined = turns.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');

  it('given a quote found in the joined conversation, when proven: the turn it falls in, and the proof\'s text is that turn\'s own span', () => {
    const proof = proofFor({ matched: null, quote: 'CANARY' }, 'sensitive', { text: joined, turn: null }, null, turns)!;
    expect(proof.turn).toBe(3);
    expect(proof.text).toBe('CANARY');
    expect(turns[proof.turn].content.slice(proof.start, proof.end)).toBe(proof.text);
  });

  it('given a quote found in one answer, when proven: that answer\'s span as it is', () => {
    const proof = proofFor({ matched: null, quote: 'assistance' }, 'obedience', { text: turns[1].content, turn: 1 }, null, turns)!;
    expect(proof).toMatchObject({ turn: 1, text: 'assistance' });
    expect(turns[1].content.slice(proof.start, proof.end)).toBe('assistance');
  });
});
