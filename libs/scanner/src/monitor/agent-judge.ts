import type { AgentEventKind, Severity } from '@gauntlet/domain';
import { JudgeContext, Verdict } from '../detectors/detector';
import { Rule } from '../detectors/rule';
import { markupRule, piiRule, secretsRule, systemPromptRule, targetCanaryRule } from '../detectors/rules';

/** One event of a deployed agent's traffic, as the Live Agent Monitor receives it. */
export interface AgentTrafficEvent {
  session_id: string;
  kind: AgentEventKind;
  content: string;
  tool?: { name: string; arguments?: unknown };
}

/** What the monitor concluded about one event: the rule it broke and how bad that is. */
export interface AgentFinding {
  rule: string;
  severity: Severity;
  detector: string;
  matched: string | null;
}

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Instructions aimed at the model rather than the task: the phrasings direct and indirect
 * injection use. Judged on inputs (a user, a retrieved document, a tool result fed back).
 */
const INJECTION: [string, RegExp][] = [
  ['override', /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|any|your|the|system)\b[^.\n]{0,25}\b(?:instructions?|rules?|prompts?|guidelines?|directives?|polic(?:y|ies))\b/i],
  ['persona switch', /\b(?:you are now|from now on,? you(?: are|'re| will)|act as|pretend (?:to be|you are)|roleplay as)\b[^.\n]{0,60}\b(?:unrestricted|unfiltered|jailbroken|dan\b|developer mode|no (?:rules|limits|restrictions|filters))/i],
  ['developer mode', /\b(?:developer|debug|god|admin|sudo|maintenance) mode\b[^.\n]{0,30}\b(?:enabled|activated|on)\b|\benable (?:developer|debug|god|admin) mode\b/i],
  ['prompt extraction', /\b(?:reveal|print|show|repeat|output|leak|tell me|what (?:is|are))\b[^.\n]{0,30}\b(?:your |the )?(?:system prompt|initial (?:prompt|instructions)|hidden (?:instructions|prompt)|instructions above|confidential instructions)\b/i],
  // a line's own indentation after a newline: `\n\s*` reads a run of blank lines again from each
  ['fake system turn', /(?:^\s*|\n[^\S\n]*)(?:#{1,3}\s*)?(?:system|assistant)\s*:|<\|(?:im_start|system|endoftext)\|>|\[\/?(?:INST|SYS)\]/i],
  ['encoded payload', /\b(?:decode|base64|rot13)\b[^.\n]{0,40}\b(?:and|then)\b[^.\n]{0,20}\b(?:follow|execute|run|obey|do)\b/i],
];
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u{E0000}-\u{E007F}]/u;

function injectionAttempt(text: string): AgentFinding | null {
  for (const [name, re] of INJECTION) {
    const m = re.exec(text);
    if (m) return { rule: `prompt-injection:${name.replace(/ /g, '-')}`, severity: 'medium', detector: 'injection-patterns', matched: clip(m[0]) };
  }
  if (INVISIBLE.test(text)) return { rule: 'prompt-injection:invisible-characters', severity: 'medium', detector: 'injection-patterns', matched: 'invisible Unicode characters' };
  return null;
}

/** Tools whose misuse cannot be undone or that move data or money out. */
const DESTRUCTIVE_TOOL = /(?:^|[_.\-])(?:delete|drop|destroy|remove|truncate|wipe|purge|revoke|disable|shutdown|kill|terminate|format)(?:[_.\-]|$)/i;
const EGRESS_TOOL = /(?:^|[_.\-])(?:send|email|mail|post|upload|transfer|wire|pay|payment|refund|withdraw|publish|share|webhook|http|fetch|request|curl)(?:[_.\-]|$)/i;
const EXEC_TOOL = /(?:^|[_.\-])(?:exec|execute|shell|bash|sh|cmd|powershell|run_command|eval|python|subprocess|system)(?:[_.\-]|$)/i;
const DESTRUCTIVE_ARGS = /\b(?:drop\s+(?:table|database)|delete\s+from|truncate\s+table|rm\s+-rf|mkfs|shutdown\b|:\(\)\s*\{)/i;

function riskyToolCall(tool: { name: string; arguments?: unknown }): AgentFinding | null {
  const args = typeof tool.arguments === 'string' ? tool.arguments : JSON.stringify(tool.arguments ?? {});
  if (DESTRUCTIVE_ARGS.test(args)) return { rule: 'tool-call:destructive-arguments', severity: 'critical', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  if (EXEC_TOOL.test(tool.name)) return { rule: 'tool-call:code-execution', severity: 'high', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  if (DESTRUCTIVE_TOOL.test(tool.name)) return { rule: 'tool-call:destructive', severity: 'high', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  if (EGRESS_TOOL.test(tool.name) && /https?:\/\/|@[\w-]+\.[a-z]{2,}/i.test(args)) {
    return { rule: 'tool-call:data-egress', severity: 'medium', detector: 'tool-policy', matched: clip(`${tool.name}(${args})`) };
  }
  return null;
}

/** Output rules shared with the scanner, with the severity an alert carries for each. */
const OUTPUT_RULES: [Rule, string, Severity][] = [
  [targetCanaryRule, 'canary-leak', 'critical'],
  [secretsRule, 'secret-disclosure', 'critical'],
  [piiRule, 'pii-disclosure', 'high'],
  [markupRule, 'unsafe-markup', 'high'],
  [systemPromptRule, 'system-prompt-disclosure', 'medium'],
];

/**
 * The Live Agent Monitor's judgement of one event, with the scanner's own detectors: injection
 * attempts in inputs, canary or secret leakage, PII and unsafe markup in outputs, risky tool
 * calls. Pure; every finding of the event is returned (one alert each).
 */
export function judgeAgentEvent(event: AgentTrafficEvent, context: { canaries: readonly string[] }): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const judge: JudgeContext = { canary: null, targetCanaries: context.canaries, entity: null };
  if (event.kind === 'input') {
    const hit = injectionAttempt(event.content);
    if (hit) findings.push(hit);
  }
  if (event.kind === 'output' || event.kind === 'tool_call') {
    // a tool call's arguments can leak as much as an answer
    const text = event.kind === 'tool_call' ? `${event.content}\n${JSON.stringify(event.tool?.arguments ?? '')}` : event.content;
    for (const [rule, name, severity] of OUTPUT_RULES) {
      const v: Verdict | null = rule(text, '', judge);
      if (v && v.outcome === 'vulnerable') findings.push({ rule: name, severity, detector: v.detector, matched: v.matched });
    }
  }
  if (event.kind === 'tool_call' && event.tool) {
    const hit = riskyToolCall(event.tool);
    if (hit) findings.push(hit);
  }
  return findings;
}
