import { performance } from 'node:perf_hooks';
import { ProbeAttempt, ProbeSelection, Profile, Turn, Verdict, Vulnerability } from '@gauntlet/domain';
import { BrowserChatDriver, ChatDriver, probeById, renderProbe, ruleDetector, runScan } from '@gauntlet/scanner';
import type { Browser } from 'playwright';
import { DEFAULT_CANARIES } from '../../../apps/lab/src/knowledge';

/** The OWASP categories the lab plants that a browser scan of a chat page can reach (quick and standard profiles). */
export const REACHABLE_CATEGORIES = ['LLM01:2025', 'LLM02:2025', 'LLM05:2025', 'LLM06:2025', 'LLM07:2025', 'LLM08:2025', 'LLM09:2025', 'LLM10:2025'];

export interface PageScan {
  vulnerabilities: Vulnerability[];
  attempts: ProbeAttempt[];
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

/**
 * A browser-mode scan of a chat page, as the scanner worker runs one, with the lab's canaries
 * configured (as a team that planted them would), through a browser shared by the caller.
 */
export async function scanPage(url: string, profile: Profile, browser: Browser, seed = 'widget-scan', selection?: ProbeSelection): Promise<PageScan> {
  const target = {
    id: 't', name: url, url, scan_mode: 'browser' as const, api_format: null, api_key: null, model: null,
    canaries: [DEFAULT_CANARIES.system, DEFAULT_CANARIES.data], browser: null, http: null, max_requests_per_second: null,
  };
  // browser operations get longer than a server's 5 s: a test machine shared by several suites can take that to open a page
  const driver = new BrowserChatDriver({ url }, { allowPrivate: true, browser, timeoutMs: 10_000, quietMs: 600, navigationTimeoutMs: 30_000, operationTimeoutMs: 20_000 });
  const vulnerabilities: Vulnerability[] = [];
  const attempts: ProbeAttempt[] = [];
  const started = performance.now();
  let ended = '';
  try {
    const outcome = await runScan({
      scanId: `widget-${profile}`, seed, profile, driver, ...(selection && { selection }), signal: new AbortController().signal, now: () => new Date(), target,
      sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
    });
    if (outcome.kind !== 'completed' && outcome.kind !== 'completed_partial') throw new Error(`${url}: the scan ended ${JSON.stringify(outcome)}`);
    ended = outcome.kind === 'completed' ? outcome.kind : `${outcome.kind}: ${outcome.reason}`;
  } finally {
    await driver.close();
  }
  return { vulnerabilities, attempts, seconds: (performance.now() - started) / 1000, outcome: ended };
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
