import { estimateTokens } from '@gauntlet/domain';
import type { SpendMeter } from '../budget/meter';

/** An OpenAI-compatible chat model the operator configured (the judge, the attacker). */
export interface ModelOptions {
  /** an OpenAI-compatible base URL (".../v1") or the full chat/completions URL */
  url: string;
  model: string;
  apiKey?: string | null;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** counts this model's requests and tokens, apart from the target's (a scan's report shows them) */
  meter?: SpendMeter;
}

export class ModelError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
    this.name = 'ModelError';
  }
}

const endpoint = (url: string) => {
  const u = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(u) ? u : `${u}/chat/completions`;
};

/**
 * Asks a model for one JSON object: the system instructions and the user message in, the first
 * {...} of its answer parsed out. Throws ModelError (HTTP status, no JSON) or the fetch's error
 * (unreachable, timed out: a TimeoutError).
 */
export async function askForJson(options: ModelOptions, instructions: string, message: string, call: { temperature: number; signal?: AbortSignal }): Promise<Record<string, unknown>> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const outgoing = options.meter?.send(estimateTokens(instructions) + estimateTokens(message));
  let content = '';
  try {
    content = await ask(options, instructions, message, call, timeout);
    outgoing?.received(estimateTokens(content));
  } catch (e) {
    outgoing?.failed();
    throw e;
  }
  try {
    const parsed = JSON.parse(content.slice(content.indexOf('{'), content.lastIndexOf('}') + 1)) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* not JSON: said below */
  }
  throw new ModelError('gave no JSON object');
}

/** one request to the model: what its first choice says */
async function ask(options: ModelOptions, instructions: string, message: string, call: { temperature: number; signal?: AbortSignal }, timeout: AbortSignal): Promise<string> {
  const res = await (options.fetch ?? fetch)(endpoint(options.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
    body: JSON.stringify({
      model: options.model,
      temperature: call.temperature,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: message },
      ],
    }),
    signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
  });
  if (!res.ok) throw new ModelError(`answered HTTP ${res.status}`, res.status);
  const json = (await res.json()) as { choices?: { message?: { content?: string } }[] };
  return json.choices?.[0]?.message?.content ?? '';
}
