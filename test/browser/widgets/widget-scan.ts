import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { OutOfBandHit, ProbeAttempt, ProbeSelection, Profile, SensitiveValue, Turn, Verdict, Vulnerability } from '@gauntlet/domain';
import {
  BrowserChatDriver, callbackFindings, callbackKey, CallbackListener, CallbackPlanting, ChatDriver, HeardHits, probeById, proxyCallbackHook, renderProbe, ruleDetector, runScan,
} from '@gauntlet/scanner';
import { MemoryHits } from '../../../libs/scanner/testing/memory-hits';
import type { Browser } from 'playwright';
import { DEFAULT_CANARIES } from '../../../apps/lab/src/knowledge';

/** The OWASP categories the lab plants that a browser scan of a chat page can reach (quick and standard profiles). */
export const REACHABLE_CATEGORIES = ['LLM01:2025', 'LLM02:2025', 'LLM05:2025', 'LLM06:2025', 'LLM07:2025', 'LLM08:2025', 'LLM09:2025', 'LLM10:2025'];

export interface PageScan {
  vulnerabilities: Vulnerability[];
  attempts: ProbeAttempt[];
  /** requests to the addresses the scan planted, as the listener recorded them */
  hits: OutOfBandHit[];
  seconds: number;
  /** completed, or how the scan ended otherwise (a page that stopped answering ends it partial) */
  outcome: string;
}

/** runs jobs `limit` at a time (pages sharing one browser), results in order */
export async function pooled<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

/** What a page scan is told and hears besides the page. */
export interface PageScanOptions {
  seed?: string;
  selection?: ProbeSelection;
  /** what the bot behind the page holds, as its team would register it (default: the lab's two canaries) */
  held?: { canaries: string[]; sensitive?: SensitiveValue[] };
  /**
   * Gauntlet's callback listener heard through the browser's proxy (CALLBACK_BASE_URL an address
   * nothing else answers): the probes that plant addresses run, and a request to one is recorded
   */
  callbacks?: boolean;
  /** the driver's longest wait for an answer (default 10 s) */
  timeoutMs?: number;
}

/** The address planted addresses are under in a page scan: nothing listens there, the proxy's hook answers. */
export const PAGE_SCAN_CALLBACK_BASE = 'http://127.0.0.1:59998/oob';

/**
 * A browser-mode scan of a chat page, as the scanner worker runs one, with what the bot holds
 * configured (as a team that planted it would), through a browser shared by the caller.
 */
export async function scanPage(url: string, profile: Profile, browser: Browser, options: PageScanOptions = {}): Promise<PageScan> {
  const held = options.held ?? { canaries: [DEFAULT_CANARIES.system, DEFAULT_CANARIES.data] };
  const target = {
    id: 't', name: url, url, scan_mode: 'browser' as const, api_format: null, api_key: null, model: null,
    canaries: held.canaries, ...(held.sensitive && { sensitive: held.sensitive }), browser: null, http: null, max_requests_per_second: null,
  };
  const hits = new MemoryHits();
  const key = callbackKey(randomBytes(32));
  const listener = new CallbackListener({ key, baseUrl: PAGE_SCAN_CALLBACK_BASE, recorder: hits, now: () => new Date() });
  // browser operations get longer than a server's 5 s: a test machine shared by several suites can take that to open a page
  const driver = new BrowserChatDriver(
    { url },
    { allowPrivate: true, browser, timeoutMs: options.timeoutMs ?? 10_000, quietMs: 600, navigationTimeoutMs: 30_000, operationTimeoutMs: 20_000, ...(options.callbacks && { callbacks: proxyCallbackHook(listener, PAGE_SCAN_CALLBACK_BASE) }) },
  );
  const vulnerabilities: Vulnerability[] = [];
  const attempts: ProbeAttempt[] = [];
  const started = performance.now();
  const scanId = `widget-${profile}-${randomUUID()}`;
  let ended = '';
  try {
    const outcome = await runScan({
      scanId, seed: options.seed ?? 'widget-scan', profile, driver, ...(options.selection && { selection: options.selection }), signal: new AbortController().signal, now: () => new Date(), target,
      sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
      ...(options.callbacks && { callbacks: { baseUrl: PAGE_SCAN_CALLBACK_BASE, key, inbox: hits, graceMs: 1_000 } }),
    });
    if (outcome.kind !== 'completed' && outcome.kind !== 'completed_partial') throw new Error(`${url}: the scan ended ${JSON.stringify(outcome)}`);
    ended = outcome.kind === 'completed' ? outcome.kind : `${outcome.kind}: ${outcome.reason}`;
  } finally {
    await driver.close();
  }
  return { vulnerabilities, attempts, hits: hits.recorded, seconds: (performance.now() - started) / 1000, outcome: ended };
}

export interface JudgedProbe {
  probe: string;
  category: string;
  verdict: Verdict;
  turns: Turn[];
}

/**
 * Each probe once through the page, one conversation each, judged by the rules as a scan judges
 * an attempt (no escalation): what a page shows of each category, cheaply.
 */
export async function judgeOnPage(url: string, probeIds: readonly string[], browser: Browser, options: { timeoutMs?: number; seed?: string } = {}): Promise<JudgedProbe[]> {
  const driver = new BrowserChatDriver({ url }, { allowPrivate: true, browser, timeoutMs: options.timeoutMs ?? 8_000, quietMs: 500, navigationTimeoutMs: 30_000, operationTimeoutMs: 20_000 });
  const out: JudgedProbe[] = [];
  try {
    for (const id of probeIds) {
      const probe = probeById(id);
      if (!probe) throw new Error(`no probe ${id}`);
      const rendered = renderProbe(probe, options.seed ?? 'widget-judge');
      const converse = () => converseThrough(driver, rendered.turns);
      // a page that did not come up in time on a loaded machine is given a second chance, as a scan retries an attempt
      const turns = await converse().catch(() => converse());
      const verdict = ruleDetector.judge(probe, turns, { canary: rendered.canary, targetCanaries: [DEFAULT_CANARIES.system, DEFAULT_CANARIES.data], entity: rendered.entity, plainTurns: rendered.turns });
      out.push({ probe: id, category: probe.category, verdict, turns });
    }
  } finally {
    await driver.close();
  }
  return out;
}

/** What requests to planted addresses proved on a page, and what they were. */
export interface HeardOnPage extends HeardHits {
  hits: OutOfBandHit[];
  /** the conversations, as recorded: each probe's turns */
  conversations: { probe: string; turns: Turn[] }[];
}

/**
 * Each probe that plants addresses once through the page, as a scan delivers it (its addresses
 * planted, the answer read with what the page showed of it), the callback listener heard through
 * the browser's proxy; then what the requests prove, as a scan hears them.
 */
export async function hearOnPage(url: string, probeIds: readonly string[], browser: Browser, held: { canaries: string[]; sensitive?: SensitiveValue[] }, options: { timeoutMs?: number } = {}): Promise<HeardOnPage> {
  const hits = new MemoryHits();
  const key = callbackKey(randomBytes(32));
  const listener = new CallbackListener({ key, baseUrl: PAGE_SCAN_CALLBACK_BASE, recorder: hits, now: () => new Date() });
  const driver = new BrowserChatDriver({ url }, { allowPrivate: true, browser, timeoutMs: options.timeoutMs ?? 8_000, quietMs: 500, navigationTimeoutMs: 30_000, operationTimeoutMs: 20_000, callbacks: proxyCallbackHook(listener, PAGE_SCAN_CALLBACK_BASE) });
  const scanId = `heard-${randomUUID()}`;
  const planting = new CallbackPlanting({ baseUrl: PAGE_SCAN_CALLBACK_BASE, key, inbox: hits }, scanId);
  const conversations: HeardOnPage['conversations'] = [];
  try {
    for (const id of probeIds) {
      const probe = probeById(id);
      if (!probe) throw new Error(`no probe ${id}`);
      const attempt = `${id}-attempt`;
      const sent = planting.plant(attempt, renderProbe(probe, 'widget-heard').turns, { probe, technique: probe.technique, converters: [], phase: 'probe' }, new Date());
      // a page that did not come up in time on a loaded machine is given a second chance, as a scan retries an attempt
      const turns = await converseThrough(driver, sent).catch(() => converseThrough(driver, sent));
      planting.delivered(attempt, turns);
      conversations.push({ probe: id, turns });
    }
  } finally {
    await driver.close();
  }
  // requests still on their way (an image the page loads as it settles)
  await new Promise((r) => setTimeout(r, 500));
  return { ...callbackFindings(scanId, planting.attempts, hits.recorded, key, held), hits: hits.recorded, conversations };
}

/** One conversation through a driver, as the engine holds it: each message sent, each answer recorded with what the page showed of it. */
export async function converseThrough(driver: ChatDriver, messages: readonly string[]): Promise<Turn[]> {
  const conversation = await driver.openConversation();
  const turns: Turn[] = [];
  try {
    for (const message of messages) {
      const content = await conversation.send(message);
      const observed = conversation.observe?.() ?? null;
      turns.push({ role: 'user', content: message }, { role: 'assistant', content, ...(observed && { observed }) });
    }
  } finally {
    await conversation.close();
  }
  return turns;
}
