import { converterById } from './registry';

const READINGS: Record<string, string> = {
  base64: 'decoded from base64',
  hex: 'decoded from hex',
  rot13: 'decoded from ROT13',
  reversed: 'reversed back',
  'spelled-out': 'joined back from the characters it spelled out',
  'line-initials': 'read from the first letters of its lines',
  'look-alikes': 'read with look-alike letters and invisible characters undone',
  leetspeak: 'read with leetspeak undone',
};

/**
 * One sentence a security team can act on: how an attack got through. "Sent as written" means
 * the target has no guardrail this attack met; otherwise it names what the request went through,
 * the form the answer was asked in, the turn the attack landed on and how the answer was read.
 */
export function howItGotThrough(converterIds: readonly string[], turns: { role: string }[], readAs?: string): string {
  const userTurns = turns.filter((t) => t.role === 'user').length;
  const parts: string[] = [];
  const request = converterIds.map((id) => converterById(id)).filter((c) => c && c.layer !== 'answer' && c.layer !== 'conversation');
  const answer = converterIds.map((id) => converterById(id)).filter((c) => c?.layer === 'answer');
  const arcs = converterIds.map((id) => converterById(id)).filter((c) => c?.layer === 'conversation');
  const rewritten = converterIds.includes('attacker');
  const unknown = converterIds.filter((id) => !converterById(id) && id !== 'attacker');
  if (rewritten) parts.push('request rewritten by the attacker model from the refusals it got');
  if (request.length) parts.push(`request sent through ${request.map((c) => `${c!.id} (${c!.technique})`).join(' and ')}`);
  if (answer.length) parts.push(`answer asked for as ${answer.map((c) => c!.id.replace(/^answer-/, '')).join(' and ')}`);
  if (arcs.length) parts.push(`${arcs.map((c) => (c!.technique === 'crescendo' ? 'a crescendo arc' : `${c!.id} (${c!.technique})`)).join(' and ')} of ${userTurns} turns`);
  if (unknown.length) parts.push(`converters ${unknown.join(', ')}`);
  if (!parts.length) parts.push(userTurns > 1 ? `sent as written over ${userTurns} turns` : 'sent as written');
  if (readAs) parts.push(`the answer ${READINGS[readAs] ?? `read as ${readAs}`}`);
  const sentence = parts.join('; ');
  return sentence[0].toUpperCase() + sentence.slice(1) + '.';
}
