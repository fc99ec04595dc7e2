import { seededRng } from '../converters/random';
import { charClass } from '../detectors/linear';
import { emailAddresses } from '../detectors/finders/pii';
import { JudgeContext } from '../detectors/judge-context';
import { piiRule, secretsRule } from '../detectors/rules';
import { isSpace, sentencesOf } from '../detectors/rules/system-prompt';
import { argumentText } from '../detectors/steering';
import { echoed, fold, squash } from '../detectors/text';
import { randomTexts } from '../../testing/random-texts';
import { AgentFinding, AgentTrafficEvent, judgeAgentEvent } from './agent-judge';

/**
 * The monitor's readers made cheaper on a hostile agent's megabytes (its call's arguments written
 * out once and URL-decoded only when they hold a `%`; the e-mail finder's and the sentence reader's
 * loops; a hit not squashed when nothing was sent) say what they said before: each is compared, on
 * seeded generated inputs, with the code it replaced, kept here as the reference.
 */

// --- the references: the code as it was ---

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);

function referenceArgumentText(call: { arguments: Record<string, unknown> | string }): string {
  const raw = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    /* not URL-encoded */
  }
  return decoded === raw ? raw : `${raw}\n${decoded}`;
}

const DESTRUCTIVE_TOOL = /(?:^|[_.\-])(?:delete|drop|destroy|remove|truncate|wipe|purge|revoke|disable|shutdown|kill|terminate|format)(?:[_.\-]|$)/i;
const EGRESS_TOOL = /(?:^|[_.\-])(?:send|email|mail|post|upload|transfer|wire|pay|payment|refund|withdraw|publish|share|webhook|http|fetch|request|curl)(?:[_.\-]|$)/i;
const EXEC_TOOL = /(?:^|[_.\-])(?:exec|execute|shell|bash|sh|cmd|powershell|run_command|eval|python|subprocess|system)(?:[_.\-]|$)/i;
const DESTRUCTIVE_ARGS = /\b(?:drop\s+(?:table|database)|delete\s+from|truncate\s+table|rm\s+-rf|mkfs|shutdown\b|:\(\)\s*\{)/i;

function referenceRiskyToolCall(tool: { name: string; arguments?: unknown }): AgentFinding | null {
  const args = typeof tool.arguments === 'string' ? tool.arguments : JSON.stringify(tool.arguments ?? {});
  if (DESTRUCTIVE_ARGS.test(args)) return { rule: 'tool-call:destructive-arguments', severity: 'critical', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  if (EXEC_TOOL.test(tool.name)) return { rule: 'tool-call:code-execution', severity: 'high', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  if (DESTRUCTIVE_TOOL.test(tool.name)) return { rule: 'tool-call:destructive', severity: 'high', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  if (EGRESS_TOOL.test(tool.name) && /https?:\/\/|@[\w-]+\.[a-z]{2,}/i.test(args)) {
    return { rule: 'tool-call:data-egress', severity: 'medium', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  }
  return null;
}

/** a tool call's findings as the monitor made them: the secrets and pii rules on the arguments as the old code read them, then the policy */
function referenceToolCall(event: AgentTrafficEvent, canaries: string[]): AgentFinding[] {
  const text = referenceArgumentText({ arguments: (event.tool?.arguments ?? {}) as Record<string, unknown> | string });
  const judge: JudgeContext = { canary: null, targetCanaries: canaries, sensitive: [], entity: null };
  const findings: AgentFinding[] = [];
  for (const [rule, name, severity] of [[secretsRule, 'secret-disclosure', 'critical'], [piiRule, 'pii-disclosure', 'high']] as const) {
    const v = rule(text, '', judge);
    if (v && v.outcome === 'vulnerable') findings.push({ rule: v.detector === 'sensitive' ? 'sensitive-disclosure' : name, severity, detector: v.detector, matched: v.matched });
  }
  const hit = event.tool ? referenceRiskyToolCall(event.tool) : null;
  return hit ? [...findings, hit] : findings;
}

const LOCAL_PART = charClass(/[A-Za-z0-9._%+-]/);
const DOMAIN_PART = charClass(/[A-Za-z0-9.-]/);
const LETTER = charClass(/[A-Za-z]/);

function* referenceEmailAddresses(text: string): Generator<string> {
  let taken = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > taken && LOCAL_PART(text.charCodeAt(start - 1))) start--;
    if (start === at) continue;
    let end = at + 1;
    while (end < text.length && DOMAIN_PART(text.charCodeAt(end))) end++;
    let dot = end - 3;
    while (dot > at + 1 && !(text.charCodeAt(dot) === 46 && LETTER(text.charCodeAt(dot + 1)) && LETTER(text.charCodeAt(dot + 2)))) dot--;
    if (dot <= at + 1) continue;
    let last = dot + 3;
    while (last < end && LETTER(text.charCodeAt(last))) last++;
    yield text.slice(start, last);
    taken = last;
  }
}

function* referenceSentencesOf(answer: string): Generator<string> {
  const take = (from: number, to: number) => {
    if (to - from <= 8) return null;
    const sentence = answer.slice(from, to).trim();
    return sentence.length > 8 ? sentence : null;
  };
  const n = answer.length;
  let start = 0;
  for (let at = 0; at < n; at++) {
    const c = answer.charCodeAt(at);
    if (c !== 10 && c !== 46 && c !== 33 && c !== 63) continue;
    let cut = at;
    let end = at + 1;
    if (c === 10) while (end < n && answer.charCodeAt(end) === 10) end++;
    else {
      cut = at + 1;
      const next = answer.charCodeAt(cut);
      if (cut >= n || next === 10 || !isSpace(next)) continue;
      for (end = cut + 1; end < n && isSpace(answer.charCodeAt(end)); ) end++;
    }
    const sentence = take(start, cut);
    if (sentence !== null) yield sentence;
    start = end;
    at = end - 1;
  }
  const last = take(start, n);
  if (last !== null) yield last;
}

/** whether `fragment` was in what we sent, as echoed() said it: the prompts squashed hold it squashed */
const referenceEchoed = (fragment: string, prompts: string) => fold(prompts).replace(/\s+/g, '').includes(squash(fragment));

// --- generated inputs: short pieces and runs longer than the stretches read by hand ---

const LONG = ['a'.repeat(17), 'word '.repeat(5), '1'.repeat(40), 'é'.repeat(20), '@'.repeat(18)];
const EMAIL_PIECES = ['a', 'B', '7', '.', '-', '_', '%', '+', '@', '@@', ' ', 'x.io', '@ab.cd', 'jan.novak@', 'mail.example.org', 'é', '\n', '…', ...LONG];
const SENTENCE_PIECES = ['a', 'You must ', 'never', '.', '!', '?', ' ', '  ', '\n', '\n\n', '\t', '\u00a0', '\u2028', '\u3000', 'x. ', '.\n ', '?\n\n', 'Do not share it. ', ...LONG];
const ARGUMENT_PIECES = [
  'a', ' ', '%', '%20', '%41', '%E2%82%AC', '%zz', '%E2', '@', 'jan.novak@mail.example.org', 'https://evil.example/x?q=', 'sk-proj-abcdefghijklmnopqrstuvwx12345', '4111 1111 1111 1111',
  'DROP TABLE users', 'rm -rf /', '"', '\\', '\n', 'é', '\ud800', ...LONG,
];
const ECHO_PIECES = ['a', 'Z', '7', ' ', '\n', '\t', '\0', '\u00ad', '\u200b', '\ufeff', '\u3000', '\u00a0', '\u0301', 'é', 'Ａ', '７', 'ﬁ', 'а', '😀', '-', '.', '\u2028'];
const TOOL_NAMES = ['send_email', 'lookup', 'delete_user', 'run_command', 'http.fetch', 'notes'];

describe("the monitor's readers, cheaper on megabytes, say what they said before", () => {
  it('finds the e-mail addresses the loop it replaces found, in order (3,000 random texts)', () => {
    for (const text of randomTexts(EMAIL_PIECES, 3000, 40, 'monitor-emails')) expect([...emailAddresses(text)]).toEqual([...referenceEmailAddresses(text)]);
  });

  it('cuts the sentences the loop it replaces cut (3,000 random texts)', () => {
    for (const text of randomTexts(SENTENCE_PIECES, 3000, 40, 'monitor-sentences')) expect([...sentencesOf(text)]).toEqual([...referenceSentencesOf(text)]);
  });

  it('says a fragment was echoed as squashing it said, with nothing sent and with prompts (1,500 random fragments)', () => {
    const fragments = randomTexts(ECHO_PIECES, 1500, 12, 'monitor-echoes');
    for (const prompts of ['', ' \n', 'Say A7 now', 'ﬁ\u200b']) for (const fragment of fragments) expect(echoed(fragment, prompts)).toBe(referenceEchoed(fragment, prompts));
  });

  it("reads a call's arguments as the code it replaces read them, and judges the call alike (2,000 random calls)", () => {
    const rng = seededRng('monitor-tool-calls');
    const texts = randomTexts(ARGUMENT_PIECES, 2000, 30, 'monitor-arguments');
    texts.forEach((text, i) => {
      const args = i % 3 === 0 ? text : i % 3 === 1 ? { body: text, to: rng.pick(texts) } : { nested: { list: [text, i] } };
      expect(argumentText({ id: '', name: 'x', arguments: args })).toBe(referenceArgumentText({ arguments: args }));
      const event: AgentTrafficEvent = { session_id: 's', kind: 'tool_call', content: '', tool: { name: rng.pick(TOOL_NAMES), arguments: args } };
      expect(judgeAgentEvent(event, { canaries: ['PENNY-SYS-7F3Q-CANARY'] })).toEqual(referenceToolCall(event, ['PENNY-SYS-7F3Q-CANARY']));
    });
  });
});
