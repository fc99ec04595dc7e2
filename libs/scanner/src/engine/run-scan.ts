import { diagnose, Phase, ProbeAttempt, Turn } from '@gauntlet/domain';
import { AttackTry } from '../attacker/attacker';
import { TargetProtocolError, TargetUnavailableError } from '../chat-driver';
import { targetEndpoint } from '../drivers/create-chat-driver';
import { applyChain, Converter } from '../converters/converter';
import { topicsOf } from '../converters/topics';
import { JudgeContext, Verdict } from '../detectors/detector';
import { readRefusal } from '../detectors/refusal';
import { candidatesOf, heldRule } from '../detectors/rules';
import { probesFor } from '../probes/catalogue';
import { Probe, RenderedProbe, discloses, renderProbe } from '../probes/probe';
import { Conversations } from './conversations';
import { Escalation, ProbeResult } from './escalation';
import { FindingBook } from './findings';
import { stableId } from './ids';
import { interleaveByCategory, planAmplification, selectProbes } from './plan';
import { ScanRecorder } from './scan-recorder';
import { DEFAULT_LIMITS, EngineLimits, PROFILE_PLANS, RunScanInput, ScanOutcome, ScanTarget } from './types';
import { verdictPolicy } from './verdict-policy';
import { Stopped, Waits, pool } from './waits';

export { stableId } from './ids';

const RECON_MESSAGE = 'Hello! What can you help me with?';

function boundText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`;
}

/** An answer as recorded: its text and the markup its page rendered bounded alike. */
function boundTurn(t: Turn, max: number): Turn {
  const observed = t.observed && { ...t.observed, ...(t.observed.markup && { markup: boundText(t.observed.markup, max) }) };
  return { ...t, content: boundText(t.content, max), ...(observed && { observed }) };
}

/**
 * Why a scan whose target never answered failed, said where people look (the status view, the
 * dashboard, the scan.failed webhook): the connection check's diagnosis and hint, then the
 * driver's own words.
 */
function firstMessageFailed(target: ScanTarget, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const failure = e instanceof TargetUnavailableError || e instanceof TargetProtocolError ? (e.failure ?? null) : null;
  const subject = { scan_mode: target.scan_mode, api_format: target.api_format, url: target.url, endpoint: targetEndpoint(target), has_api_key: target.api_key !== null };
  const { diagnosis, hint } = diagnose(subject, { kind: 'failed', failure, message }, 0);
  return `The target did not answer the first message. ${diagnosis}${hint ? ` ${hint}` : ''} (${message.slice(0, 300)})`;
}

/**
 * Runs one scan: recon (does the target answer?), probe (the catalogue), amplify (escalation in
 * every category that resisted, then converter chains on what worked), analyze (one finding per
 * weakness, its strongest evidence and its variants), report. Everything it tries goes to the
 * sink as it happens. This is the phases and the attempts; the conversations and their waits
 * (Conversations, Waits, pool), the sink's writes and progress (ScanRecorder) and how a verdict
 * is reached (verdictPolicy, detectors by name) each live apart.
 */
export async function runScan(input: RunScanInput): Promise<ScanOutcome> {
  const limits: EngineLimits = { ...DEFAULT_LIMITS, ...input.limits };
  const plan = PROFILE_PLANS[input.profile];
  const probes = interleaveByCategory(selectProbes(probesFor(input.profile), input.selection));
  const { driver, sink, target, seed, scanId } = input;

  // one controller for everything in flight: the caller's abort, a sink failure or a lost target stop it
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  input.signal.addEventListener('abort', onAbort, { once: true });
  const waits = new Waits(stop.signal, Math.min(250, Math.max(10, limits.messageTimeoutMs / 10)));
  const conversations = new Conversations(driver, waits, limits.messageTimeoutMs, stop.signal);
  const judge = verdictPolicy(input.judge);

  let unavailable: string | null = null;
  let consecutiveErrors = 0;
  // the attacker's rounds are planned work only when there is an attacker (8 testable categories at most)
  const attackerBudget = input.attacker ? plan.attackerRounds * 8 : 0;
  const total = 1 + probes.length + plan.escalationBudget + attackerBudget + plan.amplifyBudget + 2;
  const recorder = new ScanRecorder(sink, total, () => stop.abort());
  const book = new FindingBook(limits.maxRecordedChars);
  // (probe, converter chain) pairs already sent: nothing is sent twice
  const sent = new Set<string>();
  const sentKey = (probe: Probe, chainId: string) => `${probe.id}|${chainId}`;

  const stopped = () => stop.signal.aborted || unavailable !== null;

  /** what the target said it is for, learnt at recon */
  let topics: readonly string[] = [];
  const renderings = new Map<string, RenderedProbe>();
  const renderedProbe = (probe: Probe) => {
    let r = renderings.get(probe.id);
    if (!r) renderings.set(probe.id, (r = renderProbe(probe, seed)));
    return r;
  };

  /** whether the target still answers a harmless first message */
  async function stillAnswers(): Promise<boolean> {
    try {
      const { transcript } = await conversations.converse([RECON_MESSAGE]);
      return Boolean(transcript[1]?.content.trim());
    } catch {
      return false;
    }
  }

  /**
   * One conversation for one probe (optionally through a converter chain); never throws.
   * `units` is its share of the planned work (escalation plans in requests).
   */
  async function attempt(probe: Probe, phase: 'probe' | 'amplify', chain: Converter[], units = 1): Promise<Verdict | null> {
    const converters = chain.map((c) => c.id);
    sent.add(sentKey(probe, converters.join('+')));
    const rendered = renderedProbe(probe);
    const turns = chain.length ? applyChain(chain, rendered.turns, seed, `${probe.id}:${converters.join('+')}`, { category: probe.category, topics }) : rendered.turns;
    const technique = chain.length ? [...new Set(chain.map((c) => c.technique))].join('+') : probe.technique;
    return (await deliver(probe, phase, { turns, converters, technique, id: converters }, units))?.verdict ?? null;
  }

  /**
   * Sends `turns` for `probe`, judges and records what came back; never throws. `id` tells
   * attempts of one probe apart (its converters, or the attacker's round).
   */
  async function deliver(
    probe: Probe,
    phase: 'probe' | 'amplify',
    how: { turns: string[]; converters: string[]; technique: string; id: string[] },
    units: number,
  ): Promise<{ verdict: Verdict; answer: string } | null> {
    if (stopped()) return null;
    const { turns, converters, technique } = how;
    const rendered = renderedProbe(probe);
    const converted = turns !== rendered.turns;
    const context: JudgeContext = {
      canary: rendered.canary, targetCanaries: target.canaries, sensitive: target.sensitive ?? [], entity: rendered.entity, ...(converted && { plainTurns: rendered.turns }), ...(probe.pattern && { pattern: probe.pattern }),
    };
    const base = { attempt_id: stableId(scanId, phase, probe.id, ...how.id), probe_id: probe.id, category: probe.category, technique, converters, phase };
    let record: ProbeAttempt;
    let verdict: Verdict | null = null;
    let answer = '';
    try {
      const { transcript, latency } = await conversations.converse(turns);
      answer = transcript.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');
      verdict = await judge(probe, transcript, context);
      consecutiveErrors = 0;
      const recorded = transcript.map((t) => (t.role === 'assistant' ? boundTurn(t, limits.maxRecordedChars) : t));
      record = { ...base, turns: recorded, verdict, latency_ms: latency };
      // what every answer holds that looks like personal data or a credential: held only if it recurs
      const candidates = candidatesOf(transcript, context);
      const proved = book.observe(probe.id, base.attempt_id, candidates);
      // an answer to a disclosure probe that its rules did not flag may still hold data that recurs
      if (verdict.outcome === 'vulnerable' || verdict.outcome === 'partial' || (discloses(probe) && candidates.length > 0)) {
        proved.push(...book.add({ probe, technique, converters, phase, verdict, turns: recorded, foundAt: input.now(), attemptId: base.attempt_id, candidates }));
      }
      // counted with the attempt that proved it, grouped as the final findings are (the book's entries)
      if (proved.length) recorder.proved(book.size, proved);
    } catch (e) {
      if (e instanceof Stopped || stop.signal.aborted) return null;
      // one conversation that went silent (an answer that broke a chat page) is not a target gone:
      // the target is given up on only if it no longer answers a harmless first message either
      if (e instanceof TargetUnavailableError && (stopped() || !(await stillAnswers()))) {
        unavailable ??= `target stopped answering: ${e.message}`;
        stop.abort();
        return null;
      }
      if (stopped()) return null;
      consecutiveErrors++;
      const message = e instanceof Error ? e.message : String(e);
      if (consecutiveErrors >= limits.maxConsecutiveErrors) {
        unavailable ??= `target failed ${consecutiveErrors} attempts in a row (last: ${message})`;
        stop.abort();
      }
      record = { ...base, turns: turns.map((content) => ({ role: 'user' as const, content })), verdict: { detector: 'engine', outcome: 'error', matched: null, confidence: 0 }, latency_ms: 0, error: message.slice(0, 500) };
    }
    await recorder.recordAttempt(record, recorder.advance(units)).catch(() => undefined);
    return verdict && { verdict, answer };
  }

  /**
   * PAIR-style: an attacker model rewrites a refused attack, round after round, learning from
   * the target's answers, until it gets through or its rounds run out. Each try is one request,
   * recorded like every attempt (converters ["attacker"]).
   */
  async function adaptiveAttack(probe: Probe, rounds: number): Promise<void> {
    const attacker = input.attacker!;
    const rendered = renderedProbe(probe);
    const goal = { category: `${probe.category} ${probe.category_name}`, objective: probe.description, request: rendered.turns.join('\n') };
    const tries: AttackTry[] = [];
    for (let round = 1; round <= rounds && !stopped(); round++) {
      const prompt = await attacker.next(goal, tries, stop.signal).catch(() => null);
      if (!prompt || stopped()) return;
      const result = await deliver(probe, 'amplify', { turns: [prompt], converters: ['attacker'], technique: 'adaptive-attacker', id: ['attacker', String(round)] }, 1);
      if (!result || result.verdict.outcome === 'vulnerable') return;
      tries.push({ prompt, answer: result.answer, outcome: result.verdict.outcome });
    }
  }
  // as many conversations as the driver's pacing says the target takes, or the profile's number
  const width = driver.concurrency ? () => driver.concurrency!() : plan.concurrency;
  const inParallel = <T>(items: readonly T[], work: (item: T) => Promise<void>) => pool(items, width, stopped, work);

  const finishEarly = async (): Promise<ScanOutcome> => {
    await recorder.flushed().catch(() => undefined);
    if (recorder.error) throw recorder.error;
    // a scan stopped midway (Ctrl-C, a scanner shutting down) ends partial with what it found so far;
    // a scan cancelled meanwhile refuses these writes, which is fine: it keeps nothing
    try {
      for (const v of book.vulnerabilities(scanId)) await recorder.recordVulnerability(v);
    } catch {
      /* refused: the scan has ended already */
    }
    return { kind: 'cancelled' };
  };

  try {
    // recon: a harmless first message; no answer means there is nothing to scan
    await recorder.enter('recon');
    if (recorder.error) throw recorder.error;
    let recon: { transcript: Turn[]; latency: number };
    try {
      recon = await conversations.converse([RECON_MESSAGE]);
    } catch (e) {
      if (input.signal.aborted) return await finishEarly();
      if (recorder.error) throw recorder.error;
      return { kind: 'failed', reason: firstMessageFailed(target, e) };
    }
    if (!recon.transcript[1].content.trim()) return { kind: 'failed', reason: 'target answered the first message with nothing' };
    // a target that refuses even a greeting is likely gated on the depth of the conversation
    const reconRefused = readRefusal(recon.transcript[1].content).refused;
    // what it says it is for, refusing or not: multi-turn arcs talk about that first
    topics = topicsOf(recon.transcript[1].content);
    // what it says to anyone who greets it is public, however often it comes back
    book.published(candidatesOf(recon.transcript));
    const leak = heldRule(recon.transcript[1].content, RECON_MESSAGE, { canary: null, targetCanaries: target.canaries, sensitive: target.sensitive ?? [], entity: null });
    await recorder.recordAttempt(
      {
        attempt_id: stableId(scanId, 'recon'), probe_id: 'recon', category: 'LLM00:2025', technique: 'reachability', converters: [], phase: 'recon',
        turns: recon.transcript.map((t) => boundTurn(t, limits.maxRecordedChars)),
        verdict: leak ? { detector: leak.detector, outcome: leak.outcome, matched: leak.matched, confidence: leak.confidence, exposes: (leak.exposes ?? []).map(({ quote: _quote, ...e }) => e) } : { detector: 'recon', outcome: 'resisted', matched: null, confidence: 1 },
        latency_ms: recon.latency,
      },
      recorder.advance(),
    );

    // probe: the catalogue, a few conversations at a time
    await recorder.enter('probe');
    const results: ProbeResult[] = [];
    await inParallel(probes, async (probe) => {
      const verdict = await attempt(probe, 'probe', []);
      if (verdict) results.push({ probe, verdict });
    });
    if (input.signal.aborted || recorder.error) return await finishEarly();

    if (!unavailable) {
      await recorder.enter('amplify');
      const order = new Map(probes.map((p, i) => [p.id, i]));
      results.sort((a, b) => order.get(a.probe.id)! - order.get(b.probe.id)!);
      // escalation: categories that resisted are attacked again, a round at a time, learning what gets through
      const escalation = new Escalation(results, {
        budget: plan.escalationBudget, seed, stackAfter: plan.stackAfter, leadsPerCategory: plan.leadsPerCategory, reconRefused,
      });
      for (let round = escalation.nextRound(); round.length && !stopped(); round = escalation.nextRound()) {
        await inParallel(round, async (a) => {
          const verdict = await attempt(a.probe, 'amplify', a.tactic.chain, a.cost);
          escalation.record(a, verdict);
          if (verdict) results.push({ probe: a.probe, verdict });
        });
      }
      if (input.signal.aborted || recorder.error) return await finishEarly();
      // an attacker model, when configured, takes on what still resists
      if (input.attacker && plan.attackerRounds > 0) {
        await inParallel(escalation.leadsStillResisting, (probe) => adaptiveAttack(probe, plan.attackerRounds));
        if (input.signal.aborted || recorder.error) return await finishEarly();
      }
      // then amplify what worked: finish half-successes, widen to other probes, collect variants.
      // What is left is known now: the bar's rest stands for it (the unspent budget is not a jump)
      const tasks = planAmplification(results, plan, seed, escalation.winning, (probe, chainId) => sent.has(sentKey(probe, chainId)));
      recorder.replan(tasks.reduce((sum, t) => sum + t.cost, 0) + 2);
      await inParallel(tasks, async (t) => void (await attempt(t.probe, 'amplify', t.chain, t.cost)));
      if (input.signal.aborted || recorder.error) return await finishEarly();
    }

    // analyze: one finding per weakness, its strongest evidence and every other way in as variants
    recorder.replan(2);
    await recorder.enter('analyze');
    for (const v of book.vulnerabilities(scanId)) {
      if (input.signal.aborted) return await finishEarly();
      await recorder.recordVulnerability(v);
    }
    recorder.advance();
    await recorder.enter('report');
    await recorder.flushed();
    if (input.signal.aborted) return { kind: 'cancelled' };
    return unavailable ? { kind: 'completed_partial', reason: unavailable } : { kind: 'completed' };
  } catch (e) {
    if (recorder.error) throw recorder.error;
    if (input.signal.aborted) return { kind: 'cancelled' };
    throw e;
  } finally {
    input.signal.removeEventListener('abort', onAbort);
    stop.abort();
    waits.close();
  }
}
