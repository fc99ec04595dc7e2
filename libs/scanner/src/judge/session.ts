import { createHash } from 'node:crypto';
import type { SensitiveValue, Severity, ToolCall, Turn } from '@gauntlet/domain';
import { findPii } from '../detectors/finders/pii';
import { findSecrets } from '../detectors/finders/secrets';
import { actOfTool, namedValues } from '../detectors/instructions';
import { heldRule } from '../detectors/rules/target-canary';
import { argumentText, STEERING_LIMITS, Steering, SteeringMemory } from '../detectors/steering';
import { AgentFinding, AgentTrafficEvent, judgeAgentEvent } from '../monitor/agent-judge';

/**
 * What the monitor remembers of one session between batches: the steering memory (instructions
 * tool results carried, what the user named) and the values the agent was given in tool results,
 * all as digests and bounded. It is recorded on the target's monitor stream after a batch changed it.
 */
export interface SessionMemory extends SteeringMemory {
  /** values shaped like personal data or credentials the agent read in tool results (digests) */
  given: string[];
}

/** values remembered per session that the agent was given */
const MAX_GIVEN = 200;
const digest = (value: string) => createHash('sha256').update(`given:${value.toLowerCase()}`).digest('hex').slice(0, 24);

/** What the target's owner told us it holds: a call carrying one of them sent it out. */
export interface MonitoredTarget {
  canaries: readonly string[];
  sensitive?: readonly SensitiveValue[];
}

/** An alert of a batch: the event it is about (its index in the batch) and what was found. */
export interface SessionAlert extends AgentFinding {
  event: number;
}

export interface JudgedBatch {
  alerts: SessionAlert[];
  /** the memory of each session the batch touched, as it is after it */
  sessions: Map<string, SessionMemory>;
}

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);
const callText = (call: ToolCall) => clip(`${call.name}(${typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)})`);
/** what a call that steered or exfiltrated is rated: moving money, deleting and running code are the worst */
const severityOf = (call: ToolCall): Severity => (['pay', 'delete', 'run'].includes(actOfTool(call.name) ?? '') ? 'critical' : 'high');

/**
 * The turns an event stands for, as the judge reads a conversation: an input is the user's message,
 * or a tool's result when it names its tool (a fetched page, an e-mail read, a document retrieved);
 * an output is the agent's answer; a tool call is the call, and its content, when given, the
 * result it got back.
 */
export function turnsOf(e: AgentTrafficEvent, index: number): Turn[] {
  if (e.kind === 'input') return [e.tool ? { role: 'tool', name: e.tool.name, content: e.content } : { role: 'user', content: e.content }];
  if (e.kind === 'output') return [{ role: 'assistant', content: e.content }];
  const call: ToolCall = { id: `e${index}`, name: e.tool?.name ?? 'unknown', arguments: (e.tool?.arguments ?? {}) as ToolCall['arguments'] };
  return [{ role: 'assistant', content: '', tool_calls: [call] }, ...(e.content ? [{ role: 'tool' as const, name: call.name, tool_call_id: call.id, content: e.content }] : [])];
}

/**
 * One session of a deployed agent, judged as a whole with what was remembered of it: the rules of
 * each event (judgeAgentEvent), and across events
 * - indirect-injection: a tool result carried an instruction, then a call did what it asked (a
 *   value only that instruction named, or the kind of action only it asked for): steering.ts;
 * - exfiltration: a call sent out a value the owner told us the target holds, or a value the agent
 *   read in a tool result to a destination (a mailbox, a host) the user never named.
 */
class SessionJudge {
  private readonly steering: Steering;
  private readonly given: string[];

  constructor(memory: SessionMemory | undefined, private readonly target: MonitoredTarget) {
    this.steering = new Steering(memory);
    this.given = [...(memory?.given ?? [])].slice(-MAX_GIVEN);
  }

  read(e: AgentTrafficEvent, index: number): AgentFinding[] {
    const found = judgeAgentEvent(e, this.target);
    for (const turn of turnsOf(e, index)) {
      for (const s of this.steering.read(turn, index)) {
        found.push({
          rule: 'indirect-injection', severity: severityOf(s.call), detector: 'tool-call',
          matched: clip(`${callText(s.call)} after ${s.instruction.tool ?? 'a tool'} said: ${s.instruction.excerpt}`, 400),
        });
      }
      if (turn.role === 'tool') this.remember(turn.content);
      for (const call of turn.tool_calls ?? []) {
        const sent = this.exfiltrated(call);
        if (sent) found.push(sent);
      }
    }
    return found;
  }

  private remember(text: string): void {
    const values = [...findPii(text).map((h) => h.value), ...findSecrets(text).map((h) => h.value)];
    for (const d of values.map(digest)) {
      if (this.given.includes(d)) continue;
      this.given.push(d);
      if (this.given.length > MAX_GIVEN) this.given.shift();
    }
  }

  private exfiltrated(call: ToolCall): AgentFinding | null {
    // a value the owner told us of, in what the call sent (the held rule, as scans read it)
    const told = heldRule.observed?.([{ role: 'assistant', content: '', tool_calls: [call] }], '', { canary: null, targetCanaries: this.target.canaries, sensitive: this.target.sensitive ?? [], entity: null })[0];
    if (told) {
      const labels = (told.verdict.exposes ?? []).map((x) => x.label).join(', ');
      return { rule: 'exfiltration', severity: 'critical', detector: told.verdict.detector, matched: clip(`${labels} sent out: ${callText(call)}`, 400) };
    }
    // a value the agent read in a tool result, sent where the user never said to send anything
    const args = argumentText(call);
    const carried = [...findPii(args).map((h) => h.value), ...findSecrets(args).map((h) => h.value)].filter((v) => this.given.includes(digest(v)));
    if (carried.length === 0) return null;
    const destinations = namedValues(args).filter((v) => (v.includes('@') || v.startsWith('host:')) && !carried.some((c) => c.toLowerCase() === v) && !this.steering.userNamed(v));
    if (destinations.length === 0) return null;
    return { rule: 'exfiltration', severity: 'high', detector: 'tool-call', matched: clip(`data read from a tool sent to ${destinations[0].replace(/^host:/, '')}: ${callText(call)}`, 400) };
  }

  memory(): SessionMemory {
    return { ...this.steering.memory(), given: [...this.given] };
  }
}

/** A batch of events, each session judged as a whole with what was remembered of it. */
export function judgeSessions(events: readonly AgentTrafficEvent[], remembered: (sessionId: string) => SessionMemory | undefined, target: MonitoredTarget): JudgedBatch {
  const judges = new Map<string, SessionJudge>();
  const alerts: SessionAlert[] = [];
  events.forEach((e, index) => {
    let judge = judges.get(e.session_id);
    if (!judge) judges.set(e.session_id, (judge = new SessionJudge(remembered(e.session_id), target)));
    for (const f of judge.read(e, index)) alerts.push({ ...f, event: index });
  });
  return { alerts, sessions: new Map([...judges].map(([id, j]) => [id, j.memory()])) };
}

/** A session's memory as recorded, read back (anything else is no memory: judged afresh). */
export function sessionMemoryOf(recorded: unknown): SessionMemory | undefined {
  if (!recorded || typeof recorded !== 'object') return undefined;
  const m = recorded as Partial<SessionMemory>;
  if (!Array.isArray(m.instructions) || !Array.isArray(m.userValues) || !Array.isArray(m.given)) return undefined;
  return { instructions: m.instructions.slice(-STEERING_LIMITS.instructions), userValues: m.userValues, userActs: Array.isArray(m.userActs) ? m.userActs : [], given: m.given };
}
