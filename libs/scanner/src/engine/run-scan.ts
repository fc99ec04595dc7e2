import { diagnose, Phase, ProbeAttempt, Turn } from '@gauntlet/domain';
import { AttackTry } from '../attacker/attacker';
import { Conversation, TargetProtocolError, TargetUnavailableError } from '../chat-driver';
import { targetEndpoint } from '../drivers/create-chat-driver';
import { applyChain, Converter } from '../converters/converter';
import { topicsOf } from '../converters/topics';
import { JudgeContext, Verdict, strongest } from '../detectors/detector';
import { readRefusal } from '../detectors/refusal';
import { exposureOf, ruleDetector, targetCanaryRule } from '../detectors/rules';
import { probesFor } from '../probes/catalogue';
import { Probe, RenderedProbe, renderProbe } from '../probes/probe';
import { Escalation, ProbeResult } from './escalation';
import { FindingBook, isDisclosure } from './findings';
import { stableId } from './ids';
import { interleaveByCategory, planAmplification } from './plan';
import { DEFAULT_LIMITS, EngineLimits, PROFILE_PLANS, RunScanInput, ScanOutcome, ScanTarget } from './types';
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
 * sink as it happens.
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
  // the attacker's rounds are planned work only when there is an attacker (8 testable categories at most)
  const attackerBudget = input.attacker ? plan.attackerRounds * 8 : 0;
  const total = 1 + probes.length + plan.escalationBudget + attackerBudget + plan.amplifyBudget + 2;
  const book = new FindingBook(limits.maxRecordedChars);
  // (probe, converter chain) pairs already sent: nothing is sent twice
  const sent = new Set<string>();
  const sentKey = (probe: Probe, chainId: string) => `${probe.id}|${chainId}`;

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

  /** what the target said it is for, learnt at recon */
  let topics: readonly string[] = [];
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
          const observed = conversation.observe?.() ?? null;
          transcript.push({ role: 'user', content: message }, { role: 'assistant', content: answer, ...(observed && { observed }) });
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

  async function stillAnswers(): Promise<boolean> {
    try {
      const { transcript } = await converse([RECON_MESSAGE]);
      return Boolean(transcript[1]?.content.trim());
    } catch {
      return false;
    }
  }

  async function judge(probe: Probe, transcript: Turn[], context: JudgeContext): Promise<Verdict> {
    let verdict: Verdict = ruleDetector.judge(probe, transcript, context);
    const answer = transcript.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');
    if (input.judge && verdict.outcome !== 'vulnerable' && (verdict.outcome === 'partial' || !readRefusal(answer).refused)) {
      const second = await input.judge.judge(probe, transcript, context);
      if (second.outcome !== 'error') verdict = strongest(verdict, second);
    }
    return verdict;
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
    const context: JudgeContext = { canary: rendered.canary, targetCanaries: target.canaries, entity: rendered.entity, ...(converted && { plainTurns: rendered.turns }) };
    const base = { attempt_id: stableId(scanId, phase, probe.id, ...how.id), probe_id: probe.id, category: probe.category, technique, converters, phase };
    let record: ProbeAttempt;
    let verdict: Verdict | null = null;
    let answer = '';
    try {
      const { transcript, latency } = await converse(turns);
      answer = transcript.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');
      verdict = await judge(probe, transcript, context);
      consecutiveErrors = 0;
      const recorded = transcript.map((t) => (t.role === 'assistant' ? boundTurn(t, limits.maxRecordedChars) : t));
      record = { ...base, turns: recorded, verdict, latency_ms: latency };
      if (verdict.outcome === 'vulnerable' || verdict.outcome === 'partial') {
        const exposure = isDisclosure(probe.category) ? exposureOf(transcript, context) : null;
        book.add({ probe, technique, converters, phase, verdict, turns: recorded, foundAt: input.now(), exposure });
      }
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
    const p = advance(units);
    await write(() => sink.recordAttempt(record, p)).catch(() => undefined);
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
      return { kind: 'failed', reason: firstMessageFailed(target, e) };
    }
    if (!recon.transcript[1].content.trim()) return { kind: 'failed', reason: 'target answered the first message with nothing' };
    // a target that refuses even a greeting is likely gated on the depth of the conversation
    const reconRefused = readRefusal(recon.transcript[1].content).refused;
    // what it says it is for, refusing or not: multi-turn arcs talk about that first
    topics = topicsOf(recon.transcript[1].content);
    const leak = targetCanaryRule(recon.transcript[1].content, RECON_MESSAGE, { canary: null, targetCanaries: target.canaries, entity: null });
    await write(() =>
      sink.recordAttempt(
        {
          attempt_id: stableId(scanId, 'recon'), probe_id: 'recon', category: 'LLM00:2025', technique: 'reachability', converters: [], phase: 'recon',
          turns: recon.transcript.map((t) => boundTurn(t, limits.maxRecordedChars)),
          verdict: leak ?? { detector: 'recon', outcome: 'resisted', matched: null, confidence: 1 },
          latency_ms: recon.latency,
        },
        advance(),
      ),
    );

    // probe: the catalogue, a few conversations at a time
    await enter('probe');
    const results: ProbeResult[] = [];
    await inParallel(probes, async (probe) => {
      const verdict = await attempt(probe, 'probe', []);
      if (verdict) results.push({ probe, verdict });
    });
    if (input.signal.aborted || sinkError) return await finishEarly();

    if (!unavailable) {
      await enter('amplify');
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
      if (input.signal.aborted || sinkError) return await finishEarly();
      // an attacker model, when configured, takes on what still resists
      if (input.attacker && plan.attackerRounds > 0) {
        await inParallel(escalation.leadsStillResisting, (probe) => adaptiveAttack(probe, plan.attackerRounds));
        if (input.signal.aborted || sinkError) return await finishEarly();
      }
      // then amplify what worked: finish half-successes, widen to other probes, collect variants
      done = Math.max(done, 1 + probes.length + plan.escalationBudget + attackerBudget);
      const tasks = planAmplification(results, plan, seed, escalation.winning, (probe, chainId) => sent.has(sentKey(probe, chainId)));
      await inParallel(tasks, async (t) => void (await attempt(t.probe, 'amplify', t.chain, t.cost)));
      if (input.signal.aborted || sinkError) return await finishEarly();
    }

    // analyze: one finding per weakness, its strongest evidence and every other way in as variants
    done = 1 + probes.length + plan.escalationBudget + attackerBudget + plan.amplifyBudget;
    advance(0);
    await enter('analyze');
    for (const v of book.vulnerabilities(scanId)) {
      if (input.signal.aborted) return await finishEarly();
      await write(() => sink.recordVulnerability(v));
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
