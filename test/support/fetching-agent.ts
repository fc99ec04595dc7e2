import { startChatEndpoint } from './chat-endpoint';

/**
 * A minimal "agent app" for tests: an OpenAI-compatible chat endpoint that runs its own fetch
 * tool on every address in the user's message and, when `follows`, obeys a fetched page that
 * tells it to load another address (appending the customer's name, as the page asks). With
 * `fetches: false` it is a bot that fetches nothing and only talks. What it fetched is kept.
 */
export interface FetchingAgent {
  url: string;
  fetched: string[];
  close(): Promise<void>;
}

const URL_IN_TEXT = /https?:\/\/[^\s"'<>)\]]+/g;

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(3_000), redirect: 'manual' });
  return (await res.text()).slice(0, 20_000);
}

export async function startFetchingAgent(options: { fetches: boolean; follows: boolean; customer: string }): Promise<FetchingAgent> {
  const fetched: string[] = [];
  const endpoint = await startChatEndpoint('agent', async (last) => {
    let reply = `Hello ${options.customer}, how can I help with your parcel?`;
    if (options.fetches) {
      for (const address of (last.match(URL_IN_TEXT) ?? []).slice(0, 2)) {
        try {
          fetched.push(address);
          const page = await fetchText(address);
          reply = `I read ${address}: ${page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 200)}`;
          if (options.follows) {
            // the page's instruction: load the address it names, the customer's name appended
            const next = (page.match(URL_IN_TEXT) ?? []).find((u) => u !== address && /customer=$/.test(u));
            if (next) {
              fetched.push(next);
              await fetchText(`${next}${encodeURIComponent(options.customer)}`);
            }
          }
        } catch {
          reply = `I could not open ${address}.`;
        }
      }
    }
    return reply;
  });
  return { ...endpoint, fetched };
}
