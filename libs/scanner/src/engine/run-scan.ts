import { hash } from 'node:crypto';
import { Phase, ProbeAttempt, Severity, SEVERITIES, Turn, Vulnerability } from '@gauntlet/domain';
import { Conversation, TargetUnavailableError } from '../chat-driver';
import { applyChain, Converter } from '../converters/converter';
import { Detector, JudgeContext, Verdict, strongest } from '../detectors/detector';
import { readRefusal } from '../detectors/refusal';
import { ruleDetector, targetCanaryRule } from '../detectors/rules';
import { probesFor } from '../probes/catalogue';
import { Probe, RenderedProbe, renderProbe } from '../probes/probe';
import { ProbeResult, interleaveByCategory, planAmplification } from './plan';
import { DEFAULT_LIMITS, EngineLimits, PROFILE_PLANS, RunScanInput, ScanOutcome } from './types';

const RECON_MESSAGE = 'Hello! What can you help me with?';

/** A stable UUID-shaped id from scan-local parts, so a retried write is recognised as the same. */
export function stableId(...parts: string[]): string {
  const h = hash('sha256', parts.join('\u0000'), 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

class Timeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
class Stopped extends Error {}

/**
 * Bounds every wait of one scan: no wait in the engine is unbounded. Each wait is registered with
 * its deadline and one coarse ticker checks them all, and the scan's stop rejects every stoppable
 * wait at once: a scan makes thousands of waits, and a timer plus an abort listener each cost
 * more than the engine's own work on a fast target.
 */
class Waits {
  private readonly pending = new Set<{ ms: number; deadline: number; stoppable: boolean; reject: (e: Error) => void }>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly stop: AbortSignal,
    tickMs: number,
  ) {
    this.ticker = setInterval(() => this.expire(), tickMs);
    this.ticker.unref();
    stop.addEventListener('abort', () => this.rejectAll(), { once: true });
  }

  /** settles with `work`, or rejects with Timeout after `ms`, or with Stopped when the scan stops (unless not `stoppable`) */
  bounded<T>(work: () => Promise<T>, ms: number, stoppable = true): Promise<T> {
    if (stoppable && this.stop.aborted) return Promise.reject(new Stopped());
    return new Promise<T>((resolve, reject) => {
      const entry = { ms, deadline: performance.now() + ms, stoppable, reject: (e: Error) => (this.pending.delete(entry), reject(e)) };
      this.pending.add(entry);
      work().then(
        (v) => (this.pending.delete(entry), resolve(v)),
        (e) => (this.pending.delete(entry), reject(e)),
      );
    });
  }

  close(): void {
    clearInterval(this.ticker);
  }

  private expire(): void {
    const now = performance.now();
    for (const entry of this.pending) if (entry.deadline <= now) entry.reject(new Timeout(entry.ms));
  }

  private rejectAll(): void {
    for (const entry of this.pending) if (entry.stoppable) entry.reject(new Stopped());
  }
}

function boundText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`;
}

function downgrade(s: Severity): Severity {
  return SEVERITIES[Math.min(SEVERITIES.length - 1, Math.max(SEVERITIES.indexOf(s) + 1, SEVERITIES.indexOf('medium')))];
}

interface Finding {
  probe: Probe;
  technique: string;
  converters: string[];
  phase: 'probe' | 'amplify';
  verdict: Verdict;
  turns: Turn[];
  foundAt: Date;
}

/**
 * Runs one scan: recon (does the target answer?), probe (the catalogue), amplify (converter
 * chains on what half-worked), analyze (one finding per probe and technique, strongest
 * evidence), report. Everything it tries goes to the sink as it happens.
 */
export async function runScan(input: RunScanInput): Promise<ScanOutcome> {
  const limits: EngineLimits = { ...DEFAULT_LIMITS, ...input.limits };
  const plan = PROFILE_PLANS[input.profile];
  const probes = interleaveByCategory(probesFor(input.profile));
  const { driver, sink, target, seed, scanId } = input;

  // one controller for everything in flight: the caller's abort, a sink failure or a lost target stop it
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  input.signal.addEventListener('abort', onAbort, { once: true });
  const waits = new Waits(stop.signal, Math.min(250, Math.max(10, limits.messageTimeoutMs / 10)));
  // the conversations in flight, abandoned together when the scan stops
  const inFlight = new Set<AbortController>();
  stop.signal.addEventListener('abort', () => inFlight.forEach((c) => c.abort()), { once: true });

  let sinkError: unknown = null;
  let unavailable: string | null = null;
  let consecutiveErrors = 0;
  let progress = 0;
  let done = 0;
  const total = 1 + probes.length + plan.amplifyBudget + 2;
  const findings = new Map<string, Finding>();

  // sink writes are serialised: one stream, one writer, and progress stays monotonic
  let sinkChain: Promise<void> = Promise.resolve();
  const write = (f: () => Promise<void>): Promise<void> => {
    sinkChain = sinkChain.then(async () => {
      if (sinkError) throw sinkError;
      try {
        await f();
      } catch (e) {
        sinkError ??= e;
        stop.abort();
        throw e;
      }
    });
    return sinkChain;
  };
  const advance = (units = 1) => {
    done += units;
    progress = Math.max(progress, Math.min(99, Math.floor((done * 100) / total)));
    return progress;
  };
  const enter = (phase: Phase) => write(() => sink.enterPhase(phase, progress));
  const stopped = () => stop.signal.aborted || unavailable !== null;

  const renderings = new Map<string, RenderedProbe>();
  const renderedProbe = (probe: Probe) => {
    let r = renderings.get(probe.id);
    if (!r) renderings.set(probe.id, (r = renderProbe(probe, seed)));
    return r;
  };

  async function converse(turns: readonly string[]): Promise<{ transcript: Turn[]; latency: number }> {
    const started = performance.now();
    // one signal per conversation: drivers hang listeners on it, and they go away with it
    // (a scan-wide signal would collect thousands of them)
    const own = new AbortController();
    inFlight.add(own);
    const transcript: Turn[] = [];
    let finished = false;
    try {
      const conversation: Conversation = await waits.bounded(() => driver.openConversation(), limits.messageTimeoutMs);
      try {
        for (const message of turns) {
          const answer = await waits.bounded(() => conversation.send(message, { signal: own.signal }), limits.messageTimeoutMs);
          transcript.push({ role: 'user', content: message }, { role: 'assistant', content: answer });
        }
        finished = true;
      } finally {
        void waits.bounded(() => conversation.close(), 5_000, false).catch(() => undefined);
      }
    } finally {
      inFlight.delete(own);
      if (!finished) own.abort(); // a timed-out or failed message still in flight is abandoned
    }
    return { transcript, latency: Math.round(performance.now() - started) };
  }

  async function judge(probe: Probe, transcript: Turn[], context: JudgeContext): Promise<Verdict> {
    let verdict = ruleDetector.judge(probe, transcript, context) as Verdict;
    const answer = transcript.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');
    if (input.judge && verdict.outcome !== 'vulnerable' && (verdict.outcome === 'partial' || !readRefusal(answer).refused)) {
      const second = await input.judge.judge(probe, transcript, context);
      if (second.outcome !== 'error') verdict = strongest(verdict, second);
    }
    return verdict;
  }

  /** One conversation for one probe (optionally through a converter chain); never throws. */
  async function attempt(probe: Probe, phase: 'probe' | 'amplify', chain: Converter[]): Promise<Verdict | null> {
    if (stopped()) return null;
    const rendered = renderedProbe(probe);
    const converters = chain.map((c) => c.id);
    const turns = chain.length ? applyChain(chain, rendered.turns, seed, `${probe.id}:${converters.join('+')}`) : rendered.turns;
    const technique = chain.length ? [...new Set(chain.map((c) => c.technique))].join('+') : probe.technique;
    const context: JudgeContext = { canary: rendered.canary, targetCanaries: target.canaries, entity: rendered.entity };
    const base = { attempt_id: stableId(scanId, phase, probe.id, ...converters), probe_id: probe.id, category: probe.category, technique, converters, phase };
    let record: ProbeAttempt;
    let verdict: Verdict | null = null;
    try {
      const { transcript, latency } = await converse(turns);
      verdict = await judge(probe, transcript, context);
      consecutiveErrors = 0;
      const recorded = transcript.map((t) => (t.role === 'assistant' ? { ...t, content: boundText(t.content, limits.maxRecordedChars) } : t));
      record = { ...base, turns: recorded, verdict, latency_ms: latency };
      if (verdict.outcome === 'vulnerable' || verdict.outcome === 'partial') {
        const key = `${probe.id}|${technique}`;
        const prior = findings.get(key);
        if (!prior || strongest(prior.verdict, verdict) !== prior.verdict) {
          findings.set(key, { probe, technique, converters, phase, verdict, turns: recorded, foundAt: input.now() });
        }
      }
    } catch (e) {
      if (e instanceof Stopped || stop.signal.aborted) return null;
      if (e instanceof TargetUnavailableError) {
        unavailable ??= `target stopped answering: ${e.message}`;
        stop.abort();
        return null;
      }
      consecutiveErrors++;
      const message = e instanceof Error ? e.message : String(e);
      if (consecutiveErrors >= limits.maxConsecutiveErrors) {
        unavailable ??= `target failed ${consecutiveErrors} attempts in a row (last: ${message})`;
        stop.abort();
      }
      record = { ...base, turns: turns.map((content) => ({ role: 'user' as const, content })), verdict: { detector: 'engine', outcome: 'error', matched: null, confidence: 0 }, latency_ms: 0, error: message.slice(0, 500) };
    }
    const p = advance();
    await write(() => sink.recordAttempt(record, p)).catch(() => undefined);
    return verdict;
  }

  async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (!stopped() && next < items.length) await work(items[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(plan.concurrency, items.length) }, worker));
  }

  const finishEarly = async (): Promise<ScanOutcome> => {
    await sinkChain.catch(() => undefined);
    if (sinkError) throw sinkError;
    return { kind: 'cancelled' };
  };

  try {
    // recon: a harmless first message; no answer means there is nothing to scan
    await enter('recon');
    if (sinkError) throw sinkError;
    let recon: { transcript: Turn[]; latency: number };
    try {
      recon = await converse([RECON_MESSAGE]);
    } catch (e) {
      if (input.signal.aborted) return await finishEarly();
      if (sinkError) throw sinkError;
      return { kind: 'failed', reason: `target did not answer the first message: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (!recon.transcript[1].content.trim()) return { kind: 'failed', reason: 'target answered the first message with nothing' };
    const leak = targetCanaryRule(recon.transcript[1].content, RECON_MESSAGE, { canary: null, targetCanaries: target.canaries, entity: null });
    await write(() =>
      sink.recordAttempt(
        {
          attempt_id: stableId(scanId, 'recon'), probe_id: 'recon', category: 'LLM00:2025', technique: 'reachability', converters: [], phase: 'recon',
          turns: recon.transcript.map((t) => ({ ...t, content: boundText(t.content, limits.maxRecordedChars) })),
          verdict: leak ?? { detector: 'recon', outcome: 'resisted', matched: null, confidence: 1 },
          latency_ms: recon.latency,
        },
        advance(),
      ),
    );

    // probe: the catalogue, a few conversations at a time
    await enter('probe');
    const results: ProbeResult[] = [];
    await pool(probes, async (probe) => {
      const verdict = await attempt(probe, 'probe', []);
      if (verdict) results.push({ probe, verdict });
    });
    if (input.signal.aborted || sinkError) return await finishEarly();

    // amplify: converter chains where something half-worked, within the profile's budget
    if (!unavailable) {
      await enter('amplify');
      const order = new Map(probes.map((p, i) => [p.id, i]));
      results.sort((a, b) => order.get(a.probe.id)! - order.get(b.probe.id)!);
      const tasks = planAmplification(results, plan, seed);
      await pool(tasks, async (t) => void (await attempt(t.probe, 'amplify', t.chain)));
      if (input.signal.aborted || sinkError) return await finishEarly();
    }

    // analyze: one finding per probe and technique, with the strongest evidence seen
    done = 1 + probes.length + plan.amplifyBudget;
    advance(0);
    await enter('analyze');
    for (const f of findings.values()) {
      if (input.signal.aborted) return await finishEarly();
      await write(() => sink.recordVulnerability(toVulnerability(scanId, f, limits)));
    }
    advance();
    await enter('report');
    await sinkChain;
    if (input.signal.aborted) return { kind: 'cancelled' };
    return unavailable ? { kind: 'completed_partial', reason: unavailable } : { kind: 'completed' };
  } catch (e) {
    if (sinkError) throw sinkError;
    if (input.signal.aborted) return { kind: 'cancelled' };
    throw e;
  } finally {
    input.signal.removeEventListener('abort', onAbort);
    stop.abort();
    waits.close();
  }
}

function toVulnerability(scanId: string, f: Finding, limits: EngineLimits): Vulnerability {
  const partial = f.verdict.outcome === 'partial';
  const leaked = f.verdict.detector === 'target-canary';
  let severity = partial ? downgrade(f.probe.severity) : f.probe.severity;
  if (leaked && SEVERITIES.indexOf(severity) > SEVERITIES.indexOf('high')) severity = 'high';
  const via = f.converters.length ? ` (via ${f.converters.join(' + ')})` : '';
  return {
    id: stableId(scanId, 'vulnerability', f.probe.id, f.technique),
    probe_id: f.probe.id,
    category: f.probe.category,
    category_name: f.probe.category_name,
    title: `${f.probe.title}${via}`,
    severity,
    confidence: Math.round((partial ? f.verdict.confidence * 0.8 : f.verdict.confidence) * 100) / 100,
    technique: f.technique,
    converters: f.converters,
    description:
      f.probe.description +
      (leaked ? ' The answer contained one of the target\'s own canary strings, which must never appear in output.' : '') +
      (partial ? ' The target only partly complied; the severity is lowered accordingly.' : ''),
    evidence: { turns: f.turns.map((t) => ({ ...t, content: boundText(t.content, limits.maxRecordedChars) })), detector: f.verdict.detector, matched: f.verdict.matched },
    remediation: f.probe.remediation,
    references: f.probe.references,
    phase: f.phase,
    found_at: f.foundAt.toISOString(),
  };
}
