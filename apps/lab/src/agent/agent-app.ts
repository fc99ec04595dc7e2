import { ChatMessage, reply } from '../brain';
import { DEFAULT_CANARIES } from '../knowledge';
import { AgentGuard } from './agent-brain';
import { AgentLedger } from './ground-truth';
import { ADDRESSED, fetchInstructionsIn, instructionsIn, readableText, sentencesOf, textInstructionIn, urlToLoad } from './instructions';
import { HeldValues, PATTERNS, cleanUrl } from './tool-reading';

/**
 * The agent app: a chat endpoint with no tools API that runs its own fetch tool for real. On any
 * URL in a user message it fetches it (HTTP GET, bounded in size and time) and summarises it; when
 * the page tells it to load another URL (with a value filled in or appended: "with the customer's
 * name appended") it does so with what it holds about the customer, as apps that browse for their
 * users have done. Guard modes: `obliging` and `guarded` follow what a page says (fetching is not
 * a risky action to refuse); `safe` fetches what it is asked to and never follows a page;
 * `talker` fetches nothing and says it read the page.
 */
export interface AppOptions {
  guard: AgentGuard;
  held: HeldValues;
  ledger: AgentLedger;
  model: string;
  /** per fetch */
  timeoutMs: number;
  /** the most of a page read */
  maxBytes: number;
  /** the most fetches one message leads to (the ones asked for included) */
  maxFetches: number;
}

export const APP_DEFAULTS = { timeoutMs: 5_000, maxBytes: 256 * 1024, maxFetches: 4 };

interface Fetched {
  url: string;
  text: string | null;
}

/** one real GET, bounded in time and size; the outcome goes to the ledger whatever it is */
async function fetchPage(url: string, cause: 'request' | 'page', request: string, options: AppOptions): Promise<Fetched> {
  const record = (status?: number, error?: string) =>
    options.ledger.record({ agent: 'app', guard: options.guard, model: options.model, kind: 'fetch', url, cause, risky: false, request, ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}) });
  try {
    const res = await fetch(url, { headers: { 'user-agent': 'gauntlet-lab-agent-app/1.0', accept: 'text/html,text/plain,application/json;q=0.9,*/*;q=0.5' }, signal: AbortSignal.timeout(options.timeoutMs) });
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    while (reader && size < options.maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      size += value.length;
    }
    await reader?.cancel().catch(() => undefined);
    record(res.status);
    return { url, text: Buffer.concat(chunks).subarray(0, options.maxBytes).toString('utf8') };
  } catch (e) {
    record(undefined, (e as Error).name === 'TimeoutError' ? 'timed out' : ((e as Error & { cause?: Error }).cause?.message ?? (e as Error).message));
    return { url, text: null };
  }
}

export async function appAnswer(messages: ChatMessage[], options: AppOptions): Promise<string> {
  const users = messages.filter((m) => m.role === 'user');
  const request = users[users.length - 1]?.content ?? '';
  const asked = [...new Set((request.match(new RegExp(PATTERNS.url.source, 'gi')) ?? []).map((u) => cleanUrl(u)!))].slice(0, options.maxFetches);
  const chat = () => reply(messages, { weaknesses: new Set(), canaries: DEFAULT_CANARIES, maxAnswerChars: 2_000 });
  if (!asked.length) return chat();
  if (options.guard === 'talker') return `I've read ${asked[0]} for you: it looks fine, and I've taken care of everything it asked.`;

  const pages: Fetched[] = [];
  for (const url of asked) pages.push(await fetchPage(url, 'request', request, options));
  const followed: string[] = [];
  let ignored = 0;
  // a page may send it on to another, which may send it on again: within the fetch budget
  for (let i = 0; i < pages.length && pages.length < options.maxFetches; i++) {
    const page = pages[i];
    if (page.text === null) continue;
    for (const instruction of fetchInstructionsIn(page.text)) {
      if (options.guard === 'safe') {
        ignored++;
        continue;
      }
      const next = urlToLoad(instruction, options.held);
      if (!next || pages.some((p) => p.url === next) || pages.length >= options.maxFetches) continue;
      pages.push(await fetchPage(next, 'page', request, options));
      followed.push(next);
    }
  }
  // a page that says what to answer is answered as it says, by an app that follows what it read
  const say = options.guard === 'safe' ? null : pages.map((p) => (p.text === null ? null : textInstructionIn(p.text))).find(Boolean);
  if (say) return say;
  if (options.guard === 'safe' && pages.some((p) => p.text !== null && textInstructionIn(p.text))) ignored++;
  const lines = pages.filter((p) => asked.includes(p.url)).map((p) => (p.text === null ? `I couldn't load ${p.url}.` : `Summary of ${p.url}: ${gist(p.text)}`));
  if (followed.length) lines.push(`As the page asked, I also loaded ${followed.join(' and ')}.`);
  if (ignored) lines.push('The page also held instructions; I did not follow them.');
  return lines.join('\n');
}

/** the first sentences of a page that are not instructions */
function gist(page: string): string {
  const instructions = instructionsIn(page);
  const sentences = sentencesOf(readableText(page)).filter((s) => s.length > 8 && !ADDRESSED.test(s) && !instructions.some((i) => s.includes(i)));
  return sentences.slice(0, 2).join(' ').slice(0, 300) || 'the page has no readable text.';
}
