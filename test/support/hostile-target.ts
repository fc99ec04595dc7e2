import { ChatEndpoint, startChatEndpoint } from './chat-endpoint';

/**
 * A target written to make judging slow, as an attacker with a free account would point Gauntlet
 * at: an OpenAI-compatible endpoint on loopback whose every answer is one long run without spaces,
 * in five shapes that once made the built-in patterns backtrack (`aaaa…`, `a.a.a.…`, `1 1 1 …`,
 * `a@a@…`, `<a <a …`), in turn.
 */
export const HOSTILE_SHAPES = ['a', 'a.', '1 ', 'a@', '<a '] as const;

export interface HostileTarget extends ChatEndpoint {
  /** requests answered so far */
  answered(): number;
}

export async function startHostileTarget(chars = 200_000): Promise<HostileTarget> {
  const answers = HOSTILE_SHAPES.map((unit) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars));
  let n = 0;
  const endpoint = await startChatEndpoint('hostile', async () => answers[n++ % answers.length]);
  return { ...endpoint, answered: () => n };
}

/** One read another account made while the scan ran: what it asked, how long the answer took, its status (0: no answer). */
export interface Read {
  path: string;
  ms: number;
  status: number;
}

/**
 * Another account reading its own things every `everyMs` (its account, and /healthz), one read at
 * a time, each with a deadline: what a user of the service sees while someone else's scan runs.
 */
export function readEvery(base: string, token: string, everyMs = 100, deadlineMs = 30_000): { stop(): Promise<Read[]> } {
  const reads: Read[] = [];
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const path = i % 2 ? '/healthz' : '/api/account';
      const started = performance.now();
      let status = 0;
      try {
        const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(deadlineMs) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // no answer within the deadline: status 0, its time the deadline
      }
      const ms = performance.now() - started;
      reads.push({ path, ms, status });
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - ms)));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return reads;
    },
  };
}

/** the q-th quantile (0..1) of `values` */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
