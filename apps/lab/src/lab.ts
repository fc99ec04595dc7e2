import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson } from './json-body';
import { AddressInfo } from 'node:net';
import { BrainConfig, ChatMessage, WEAKNESSES, Weakness, reply } from './brain';
import { Guardrails, NO_GUARDRAILS, describeGuardrails, guarded, guardedAsync } from './guardrails';
import { DEFAULT_CANARIES, LabCanaries, scriptedSecrets } from './knowledge';
import { ExposureLog } from './model/exposure';
import { modelBrain } from './model/model-brain';
import { HARDENED_PERSONA, persona as personaOf } from './model/personas';
import type { LabSecret } from './secrets';
import { AnswerAbandonedError, LanguageModel, ModelBusyError, ModelFailedError, ModelMissingError, sharedSmolLm2 } from './model/smollm2';
import { chatPage } from './page';

/** what answers: the scripted brain (brain.ts, the default) or a real language model */
export const LAB_MODELS = ['scripted', 'smollm2'] as const;
export type LabModel = (typeof LAB_MODELS)[number];

export interface LabOptions {
  /** 0 picks a free port */
  port?: number;
  host?: string;
  /** vulnerable: the listed weaknesses (all by default); hardened: none */
  mode?: 'vulnerable' | 'hardened';
  weaknesses?: readonly Weakness[];
  /** guardrails in front of and behind the model (see guardrails.ts); none by default */
  defenses?: Guardrails;
  /** added before every answer */
  latencyMs?: number;
  /** after this many chat requests the lab answers 503 to every further one */
  failAfter?: number | null;
  /** the key chat requests must carry (Authorization: Bearer, or x-api-key); none by default */
  apiKey?: string | null;
  /**
   * chat requests admitted per second, as a rate-limited API does it: a request over the limit is
   * answered 429 at once with Retry-After (seconds, rounded up) and retry-after-ms; none by default
   */
  rateLimit?: number | null;
  /** requests the limit lets through at once (default 1: strictly spaced) */
  rateBurst?: number;
  canaries?: LabCanaries;
  /**
   * scripted (default): the rule-based brain; smollm2: SmolLM2-135M-Instruct answers as the
   * persona (weights from infra/smollm2.sh; the weakness switches do not apply, the guardrails do)
   */
  model?: LabModel;
  /** the real model's persona (model/personas.ts; default penny); hardened mode uses one that holds no secret */
  persona?: string;
  /** the real model's generation slots: answers generated at once, one context sequence each (default 1) */
  slots?: number;
  /** the real model to use instead of the process's shared SmolLM2 (tests) */
  languageModel?: LanguageModel;
  /** pause between streamed words (the first few hundred), so a person sees the answer arrive */
  streamDelayMs?: number;
  maxAnswerChars?: number;
}

export interface RunningLab {
  url: string;
  /** chat requests answered, and refused by the rate limit, so far */
  stats(): { answered: number; limited: number };
  canaries: LabCanaries;
  weaknesses: Weakness[];
  /** e.g. "input_keywords, crescendo:3", or "none" */
  defenses: string;
  model: LabModel;
  /** the real model's persona, null for the scripted brain */
  persona: string | null;
  /**
   * what the lab holds and must not say, with the OWASP category a leak of each falls under:
   * for tests and benches, never served over HTTP
   */
  secrets: LabSecret[];
  /** every answer the lab gave and which of its secrets it exposed (the exposure oracle) */
  exposures: ExposureLog;
  close(): Promise<void>;
}

const MODEL_IDS: Record<LabModel, string> = { scripted: 'penny-lab', smollm2: 'smollm2-135m-lab' };


/** Accepts OpenAI string content and Anthropic/OpenAI content-part arrays. */
function toMessages(raw: unknown): ChatMessage[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new HttpError(400, 'messages must be a non-empty array');
  return raw.map((m) => {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' && role !== 'assistant' && role !== 'system') throw new HttpError(400, 'message role must be user, assistant or system');
    const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('') : null;
    if (text === null) throw new HttpError(400, 'message content must be a string or an array of text parts');
    return { role, content: text };
  });
}

const words = (text: string) => text.match(/\S+\s*|\s+/g) ?? [''];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startLab(options: LabOptions = {}): Promise<RunningLab> {
  const labModel = options.model ?? 'scripted';
  if (!LAB_MODELS.includes(labModel)) throw new Error(`LAB_MODEL must be one of ${LAB_MODELS.join(', ')}, got "${labModel}"`);
  const real = labModel !== 'scripted';
  const weaknesses = options.mode === 'hardened' || real ? [] : [...(options.weaknesses ?? WEAKNESSES)];
  const config: BrainConfig = {
    weaknesses: new Set(weaknesses),
    canaries: options.canaries ?? DEFAULT_CANARIES,
    maxAnswerChars: options.maxAnswerChars ?? 60_000,
  };
  const persona = real ? personaOf(options.mode === 'hardened' ? HARDENED_PERSONA : (options.persona ?? 'penny'), config.canaries) : null;
  const languageModel = real ? (options.languageModel ?? sharedSmolLm2(options.slots ? { slots: options.slots } : {})) : null;
  // the weights are looked for at start (loaded on the first answer), so a missing file stops the lab at once, saying how to fetch them
  languageModel?.assertAvailable();
  const secrets = persona ? persona.secrets : options.mode === 'hardened' ? [] : scriptedSecrets(config.canaries);
  const exposures = new ExposureLog(secrets);
  const MODEL = MODEL_IDS[labModel];
  const defenses = options.defenses ?? NO_GUARDRAILS;
  /** the guarded answer, and whether a guard gave it instead of the brain */
  async function answerWith(messages: ChatMessage[], abandoned: AbortSignal): Promise<{ answer: string; guarded: boolean }> {
    if (languageModel) return guardedAsync(messages, defenses, config.canaries, modelBrain(languageModel, persona!, abandoned), secrets.map((s) => s.value));
    let byGuard = true;
    const answer = guarded(messages, defenses, config.canaries, (m) => {
      byGuard = false;
      return reply(m, config);
    });
    return { answer, guarded: byGuard };
  }
  const latency = options.latencyMs ?? 0;
  const streamDelay = options.streamDelayMs ?? 0;
  let chatRequests = 0;
  let answered = 0;
  const limiter = options.rateLimit ? tokenBucket(options.rateLimit, options.rateBurst ?? 1) : null;
  const sockets = new Set<import('node:net').Socket>();

  async function stream(res: ServerResponse, answer: string, event: (word: string, i: number) => string[], end: string[]) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const parts = words(answer);
    for (let i = 0; i < parts.length; i++) {
      if (res.destroyed) return;
      for (const e of event(parts[i], i)) res.write(e);
      if (streamDelay && i < 300) await sleep(streamDelay);
    }
    for (const e of end) res.write(e);
    res.end();
  }

  async function chat(req: IncomingMessage, res: ServerResponse, format: 'openai' | 'anthropic') {
    if (options.apiKey) {
      const given = String(req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /i, '') ?? '');
      if (given !== options.apiKey) throw new HttpError(401, 'Incorrect API key provided.');
    }
    if (limiter) {
      const waitMs = limiter.take(Date.now());
      if (waitMs > 0) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(waitMs / 1000)), 'retry-after-ms': String(Math.ceil(waitMs)) });
        return res.end(JSON.stringify({ error: { message: `Rate limit reached: ${options.rateLimit} requests per second.`, type: 'requests', code: 'rate_limit_exceeded' } }));
      }
    }
    chatRequests++;
    if (options.failAfter != null && chatRequests > options.failAfter) throw new HttpError(503, 'the lab has stopped answering (LAB_FAIL_AFTER)');
    const body = await readJson(req);
    const messages = toMessages(body.messages);
    if (latency) await sleep(latency);
    // a client that hangs up before its answer (a page closed, a scan cancelled) frees the model, as
    // a model server stops generating for a closed connection: else its queue stays full of answers
    // nobody reads, and the next asker is refused
    const hungUp = new AbortController();
    res.once('close', () => !res.writableEnded && hungUp.abort());
    const { answer, guarded: byGuard } = await answerWith(messages, hungUp.signal);
    const users = messages.filter((m) => m.role === 'user');
    exposures.record({ question: users[users.length - 1]?.content ?? '', turn: users.length, answer, guarded: byGuard });
    answered++;
    const id = `lab-${chatRequests}`;
    const created = Math.floor(Date.now() / 1000);
    const sse = (o: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(o)}\n\n`;
    if (format === 'openai') {
      if (body.stream === true) {
        const chunk = (delta: object, finish: string | null) => sse({ id, object: 'chat.completion.chunk', created, model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] });
        return stream(res, answer, (w, i) => [chunk(i === 0 ? { role: 'assistant', content: w } : { content: w }, null)], [chunk({}, 'stop'), 'data: [DONE]\n\n']);
      }
      return json(res, 200, {
        id, object: 'chat.completion', created, model: MODEL,
        choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: words(answer).length, total_tokens: words(answer).length },
      });
    }
    const message = { id, type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 0, output_tokens: words(answer).length } };
    if (body.stream === true) {
      return stream(
        res,
        answer,
        (w) => [sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: w } }, 'content_block_delta')],
        [sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'), sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }, 'message_delta'), sse({ type: 'message_stop' }, 'message_stop')],
      ).then(() => undefined);
    }
    return json(res, 200, { ...message, content: [{ type: 'text', text: answer }] });
  }

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = `${req.method} ${path}`;
    const work = async () => {
      if (route === 'GET /') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(chatPage(config.weaknesses.has('output_handling'), persona?.name));
      }
      if (route === 'GET /v1/models') return json(res, 200, { object: 'list', data: [{ id: MODEL, object: 'model', created: 0, owned_by: 'gauntlet-lab' }] });
      if (route === 'GET /healthz') return json(res, 200, { status: 'ok', model: labModel, persona: persona?.id ?? null, weaknesses, defenses: describeGuardrails(defenses), stats: { answered, limited: limiter?.refused ?? 0 } });
      if (route === 'POST /v1/chat/completions') return chat(req, res, 'openai');
      if (route === 'POST /v1/messages') return chat(req, res, 'anthropic');
      throw new HttpError(404, `no route for ${route}`);
    };
    work().catch((e: unknown) => {
      if (e instanceof AnswerAbandonedError) return res.destroy();
      if (e instanceof ModelBusyError && !res.headersSent) {
        // more requests than the real model can answer in time: refused as a rate-limited model API refuses them
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(e.retryAfterMs / 1000)), 'retry-after-ms': String(e.retryAfterMs) });
        return res.end(JSON.stringify({ error: { message: e.message, type: 'requests', code: 'rate_limit_exceeded' } }));
      }
      // a real model that failed, or has no weights, is a service unavailable
      const status = e instanceof HttpError ? e.status : e instanceof ModelFailedError || e instanceof ModelMissingError ? 503 : 500;
      if (res.headersSent) return res.destroy();
      json(res, status, { error: { message: e instanceof HttpError || status === 503 ? (e as Error).message : 'internal error', type: status === 503 ? 'unavailable' : 'invalid_request_error' } });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host}:${port}`,
    stats: () => ({ answered, limited: limiter?.refused ?? 0 }),
    canaries: config.canaries,
    weaknesses,
    defenses: describeGuardrails(defenses),
    model: labModel,
    persona: persona?.id ?? null,
    secrets,
    exposures,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The rate limit: a token bucket refilled at `perSecond`, holding `burst` tokens. `take` spends a
 * token and answers 0, or answers how long until one is free (and spends nothing).
 */
function tokenBucket(perSecond: number, burst: number) {
  let tokens = burst;
  let at = Date.now();
  const bucket = {
    refused: 0,
    take(now: number): number {
      tokens = Math.min(burst, tokens + ((now - at) * perSecond) / 1000);
      at = now;
      if (tokens >= 1) {
        tokens -= 1;
        return 0;
      }
      bucket.refused++;
      return ((1 - tokens) * 1000) / perSecond;
    },
  };
  return bucket;
}

export function parseWeaknesses(list: string | undefined): Weakness[] | undefined {
  if (!list || !list.trim()) return undefined;
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(WEAKNESSES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`LAB_WEAKNESSES: unknown weakness ${unknown.join(', ')} (known: ${WEAKNESSES.join(', ')})`);
  return names as Weakness[];
}
