import type { ProbeAttempt, ToolDefinition, Turn } from '@gauntlet/domain';
import { riskiestTool, toolRuntime } from '../agents/runtime';
import type { CallbackPlanting } from '../callbacks/planting';
import type { CallbackTally } from '../callbacks/hearing';
import { AgentSetup, TargetUnavailableError } from '../chat-driver';
import { applyChain, Converter } from '../converters/converter';
import { JudgeContext, Verdict } from '../detectors/detector';
import { Readings } from '../detectors/readings';
import { candidatesOf } from '../detectors/candidates';
import { heldRule } from '../detectors/rules';
import { topicsOf } from '../converters/topics';
import { discloses, offersTools, Probe, RenderedProbe, renderProbe } from '../probes/probe';
import { Conversations } from './conversations';
import { FindingBook } from './findings';
import { stableId } from '../ids';
import { ScanRecorder } from './scan-recorder';
import { TargetHealth } from './target-health';
import { ScanTarget } from './types';
import { JudgeAttempt } from './verdict-policy';
import { Stopped } from './waits';
import { BudgetReached } from '../budget/meter';

/** the harmless first message: recon sends it, and a target that went silent is asked it again */
export const RECON_MESSAGE = 'Hello! What can you help me with?';

function boundText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`;
}

/** An answer as recorded: its text and the markup its page rendered bounded alike. */
export function boundTurn(t: Turn, max: number): Turn {
  const observed = t.observed && { ...t.observed, ...(t.observed.markup && { markup: boundText(t.observed.markup, max) }) };
  return { ...t, content: boundText(t.content, max), ...(observed && { observed }) };
}

export type AttemptPhase = 'probe' | 'amplify';

/** What one attempt sends: its turns, how they were made, and what tells it apart from the probe's other attempts. */
export interface Delivery {
  turns: string[];
  converters: string[];
  technique: string;
  /** tells attempts of one probe apart (its converters, or the attacker's round) */
  id: string[];
}

export interface AttemptsDeps {
  scanId: string;
  seed: string;
  target: ScanTarget;
  now: () => Date;
  conversations: Conversations;
  judge: JudgeAttempt;
  recorder: ScanRecorder;
  book: FindingBook;
  health: TargetHealth;
  /** the scan's stop: once it trips, what fails was cut short, not the target's doing */
  stop: AbortSignal;
  maxRecordedChars: number;
  /** where an attempt's `{{callback}}` placeholders become its own listener addresses (null: no listener) */
  callbacks?: CallbackPlanting | null;
  /** what requests to those addresses prove while the scan runs: counted live with the attempts */
  heard?: CallbackTally | null;
  /** the tools the scan offers the target's agent (none: it is only talked to) */
  agent?: ScanAgent;
}

/** The scan's tools, and who is told when the target's API turns out to refuse them. */
export interface ScanAgent {
  tools: readonly ToolDefinition[];
  toolsRefused(reason: string): void;
}

/**
 * The scan's attempts, each one conversation: send the turns, read the answers, judge them, file
 * what they showed in the finding book and record the attempt (once, through the recorder: the
 * scan's events are where attempts are kept). Never throws: a failure is recorded as an error
 * attempt and told to the target's health. Each (probe, converter chain) is sent at most once.
 */
export class Attempts {
  /** (probe, converter chain) pairs already sent */
  private readonly sent = new Set<string>();
  private readonly renderings = new Map<string, RenderedProbe>();
  /** what the target said it is for, learnt at recon: multi-turn arcs talk about that first */
  private topics: readonly string[] = [];

  constructor(private readonly deps: AttemptsDeps) {}

  learnTopics(topics: readonly string[]): void {
    this.topics = topics;
  }

  wasSent(probe: Probe, chainId: string): boolean {
    return this.sent.has(sentKey(probe, chainId));
  }

  /** the probe as this scan sends it (rendered once, with the scan's seed) */
  rendered(probe: Probe): RenderedProbe {
    let r = this.renderings.get(probe.id);
    if (!r) {
      r = renderProbe(probe, this.deps.seed);
      // an attack on "your riskiest tool" names the target's own
      const riskiest = probe.agent && riskiestTool(this.deps.agent?.tools ?? []);
      if (riskiest) r = { ...r, turns: r.turns.map((t) => t.split('{{tool}}').join(riskiest.name)) };
      this.renderings.set(probe.id, r);
    }
    return r;
  }

  /**
   * One conversation for one probe (optionally through a converter chain). `units` is its share
   * of the planned work (escalation plans in requests).
   */
  async attempt(probe: Probe, phase: AttemptPhase, chain: Converter[], units = 1): Promise<Verdict | null> {
    const converters = chain.map((c) => c.id);
    this.sent.add(sentKey(probe, converters.join('+')));
    const rendered = this.rendered(probe);
    const turns = chain.length ? applyChain(chain, rendered.turns, this.deps.seed, `${probe.id}:${converters.join('+')}`, { category: probe.category, topics: this.topics }) : rendered.turns;
    const technique = chain.length ? [...new Set(chain.map((c) => c.technique))].join('+') : probe.technique;
    return (await this.deliver(probe, phase, { turns, converters, technique, id: converters }, units))?.verdict ?? null;
  }

  /** Sends `how.turns` for `probe`, judges and records what came back; null when nothing was judged. */
  async deliver(probe: Probe, phase: AttemptPhase, how: Delivery, units: number): Promise<{ verdict: Verdict; answer: string } | null> {
    const { health, conversations, book, recorder, stop, maxRecordedChars } = this.deps;
    if (health.stopped) return null;
    const { converters, technique } = how;
    const rendered = this.rendered(probe);
    const agent = this.agentFor(probe, rendered);
    const context = this.judgeContext(rendered, how.turns !== rendered.turns, agent);
    const base = { attempt_id: stableId(this.deps.scanId, phase, probe.id, ...how.id), probe_id: probe.id, category: probe.category, technique, converters, phase };
    const turns = this.plantCallbacks(base, probe, how.turns);
    let record: ProbeAttempt;
    let verdict: Verdict | null = null;
    let answer = '';
    try {
      const { transcript, latency } = await conversations.converse(turns, agent);
      answer = transcript.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');
      verdict = await this.deps.judge(probe, transcript, context);
      health.answered();
      const recorded = transcript.map((t) => (t.role === 'assistant' || t.role === 'tool' ? boundTurn(t, maxRecordedChars) : t));
      this.deps.callbacks?.delivered(base.attempt_id, recorded);
      record = { ...base, turns: recorded, verdict, latency_ms: latency };
      // what every answer holds that looks like personal data or a credential: held only if it
      // recurs, and never what our own tool results told it
      const told = transcript.filter((t) => t.role === 'tool').map((t) => t.content).join('\n');
      const candidates = candidatesOf(transcript, context).filter((c) => !told || !told.includes(c.value));
      const proved = book.observe(probe.id, base.attempt_id, candidates);
      // an answer to a disclosure probe that its rules did not flag may still hold data that recurs,
      // and an answer to any probe a credential (a database URL recited in pieces under an injection)
      if (verdict.outcome === 'vulnerable' || verdict.outcome === 'partial' || (discloses(probe) && candidates.length > 0) || candidates.some((c) => c.kind === 'credential')) {
        proved.push(...book.add({ probe, technique, converters, phase, verdict, turns: recorded, foundAt: this.deps.now(), attemptId: base.attempt_id, candidates }));
      }
      // counted with the attempt that proved it, grouped as the final findings are (the book's entries)
      if (proved.length) recorder.proved(this.findingsSoFar(), proved);
    } catch (e) {
      // the request that would have crossed the budget was never sent: the scan stops here, the attempt unfinished
      if (e instanceof BudgetReached) {
        health.atBudget(e.limit);
        return null;
      }
      if (e instanceof Stopped || stop.aborted) return null;
      // one conversation that went silent (an answer that broke a chat page) is not a target gone:
      // the target is given up on only if it no longer answers a harmless first message either
      if (e instanceof TargetUnavailableError && (health.stopped || !(await this.stillAnswers()))) {
        health.lost(e.message);
        return null;
      }
      if (health.stopped) return null;
      const message = e instanceof Error ? e.message : String(e);
      health.failed(message);
      record = { ...base, turns: turns.map((content) => ({ role: 'user' as const, content })), verdict: { detector: 'engine', outcome: 'error', matched: null, confidence: 0 }, latency_ms: 0, error: message.slice(0, 500) };
    }
    await this.hear(Boolean(this.deps.callbacks?.attempt(base.attempt_id)));
    await recorder.recordAttempt(record, recorder.advance(units)).catch(() => undefined);
    return verdict && { verdict, answer };
  }

  /** distinct weaknesses proven so far: the book's, and those only a request to a planted address proved */
  private findingsSoFar(): number {
    const { book, heard } = this.deps;
    return book.size + (heard?.beyond((f) => book.has(f)) ?? 0);
  }

  /** weaknesses requests to planted addresses proved since the last attempt: they count with this one */
  private async hear(planted: boolean): Promise<void> {
    const { heard, book, recorder } = this.deps;
    if (!heard) return;
    const fresh = (await heard.heard(this.deps.now().getTime(), planted)).filter((w) => !book.has(w.fingerprint));
    if (fresh.length) recorder.proved(this.findingsSoFar(), fresh);
  }

  /** the turns with this attempt's own listener addresses in place of `{{callback}}` placeholders */
  private plantCallbacks(base: { attempt_id: string; technique: string; converters: string[]; phase: AttemptPhase }, probe: Probe, turns: string[]): string[] {
    const { callbacks } = this.deps;
    return callbacks ? callbacks.plant(base.attempt_id, turns, { probe, technique: base.technique, converters: base.converters, phase: base.phase }, this.deps.now()) : turns;
  }

  /** the tools offered to this probe's conversation, with Gauntlet's runtime; none for probes that are only talk */
  private agentFor(probe: Probe, rendered: RenderedProbe): AgentSetup | undefined {
    const agent = this.deps.agent;
    if (!agent?.tools.length || !offersTools(probe)) return undefined;
    return toolRuntime({ tools: agent.tools, poison: rendered.poison, toolsRefused: (reason) => agent.toolsRefused(reason) });
  }

  /**
   * Recon's attempt: the harmless first message, judged for what the target holds only (a greeting
   * asks for nothing else) and recorded as every attempt is. What the target says it is for is
   * learnt (multi-turn arcs talk about that first), and what it says to anyone who greets it is
   * public, however often it comes back. The greeting, or null when it answered with nothing;
   * throws what the conversation threw (the scan ends there).
   */
  async recon(): Promise<string | null> {
    const { conversations, recorder, book, maxRecordedChars } = this.deps;
    const { transcript, latency } = await conversations.converse([RECON_MESSAGE]);
    const greeting = transcript[1].content;
    if (!greeting.trim()) return null;
    this.learnTopics(topicsOf(greeting));
    book.published(candidatesOf(transcript));
    const leak = heldRule(greeting, RECON_MESSAGE, this.judgeContext(null, false));
    const verdict: Verdict = leak
      ? { detector: leak.detector, outcome: leak.outcome, matched: leak.matched, confidence: leak.confidence, exposes: (leak.exposes ?? []).map(({ quote: _quote, ...e }) => e) }
      : { detector: 'recon', outcome: 'resisted', matched: null, confidence: 1 };
    const record: ProbeAttempt = {
      attempt_id: stableId(this.deps.scanId, 'recon'), probe_id: 'recon', category: 'LLM00:2025', technique: 'reachability', converters: [], phase: 'recon',
      turns: transcript.map((t) => boundTurn(t, maxRecordedChars)), verdict, latency_ms: latency,
    };
    await recorder.recordAttempt(record, recorder.advance());
    return greeting;
  }

  /**
   * what the rules know beyond the conversation: the probe's canary, entity and pattern (none at
   * recon), what the target holds; and the attempt's own readings of its answers, made once for its
   * verdict and its candidates and dropped with it
   */
  private judgeContext(rendered: RenderedProbe | null, converted: boolean, agent?: AgentSetup): JudgeContext {
    return {
      readings: new Readings(),
      canary: rendered?.canary ?? null, targetCanaries: this.deps.target.canaries, sensitive: this.deps.target.sensitive ?? [], entity: rendered?.entity ?? null,
      ...(rendered && converted && { plainTurns: rendered.turns }), ...(rendered?.pattern && { pattern: rendered.pattern }),
      ...(rendered && agent && { agent: { tools: agent.tools, token: rendered.marks?.token ?? null, indirect: Boolean(rendered.poison) } }),
    };
  }

  /** whether the target still answers a harmless first message */
  private async stillAnswers(): Promise<boolean> {
    try {
      const { transcript } = await this.deps.conversations.converse([RECON_MESSAGE]);
      return Boolean(transcript[1]?.content.trim());
    } catch (e) {
      // not asked: the budget stops the scan, not the target
      if (e instanceof BudgetReached) {
        this.deps.health.atBudget(e.limit);
        return true;
      }
      return false;
    }
  }
}

const sentKey = (probe: Probe, chainId: string) => `${probe.id}|${chainId}`;
