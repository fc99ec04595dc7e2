// A third family of guarded chatbots used as scan targets: "Wren", the patient-services assistant
// of Marrowfield Health (a fictional hospital group), behind five different policies. Each serves
// the OpenAI chat-completions protocol and a small web chat page on 127.0.0.1. Only Node's
// standard library; deterministic; no model. See README.md for the table of kinds.
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { blockedTerm, inputRefusal, leakIn, onTopicTurns, outputRefusal, WARMUP_TURNS, warmupRefusal } from './guards';
import { MAX_OUTPUT, Policy, respond } from './model';
import { chatPage } from './page';
import { BOT_NAME, GUARDED_SYSTEM_PROMPT, ORG } from './persona';
import { ChatMessage } from './reader';
import { hash } from './text';

export const THIRD_BOT_KINDS = ['keyword-filter', 'secret-redactor', 'slow-warmup', 'open', 'locked-down'] as const;
export type ThirdBotKind = (typeof THIRD_BOT_KINDS)[number];

export interface ThirdBot {
  url: string;
  name: string;
  kind: ThirdBotKind;
  /** OWASP LLM Top 10 (2025) ids of the weaknesses built into this kind. */
  planted: string[];
  requests(): number;
  close(): Promise<void>;
}

const GUARDED: Omit<Policy, 'followsInjections' | 'revealsPrompt' | 'revealsRecords' | 'claimsActions' | 'writesMarkup'> = { secrets: true, invents: false, unbounded: false, terse: false };

interface KindSpec {
  planted: string[];
  policy: Policy;
  /** Answers before the model, or undefined to let the model answer. */
  before?: (messages: ChatMessage[], seed: number) => string | undefined;
  /** Replaces the model's answer, or returns undefined to let it through. */
  after?: (answer: string, seed: number) => string | undefined;
}

const KINDS: Record<ThirdBotKind, KindSpec> = {
  'keyword-filter': {
    planted: ['LLM01:2025', 'LLM07:2025'],
    policy: { ...GUARDED, followsInjections: true, revealsPrompt: true, revealsRecords: false, claimsActions: false, writesMarkup: false },
    before: (messages, seed) => {
      const users = messages.filter((m) => m.role === 'user');
      const newest = users[users.length - 1]?.content ?? '';
      return blockedTerm(newest) ? inputRefusal(seed) : undefined;
    },
  },
  'secret-redactor': {
    planted: ['LLM02:2025', 'LLM07:2025'],
    policy: { ...GUARDED, followsInjections: false, revealsPrompt: true, revealsRecords: true, claimsActions: false, writesMarkup: false },
    after: (answer, seed) => (leakIn(answer, GUARDED_SYSTEM_PROMPT) ? outputRefusal(seed) : undefined),
  },
  'slow-warmup': {
    planted: ['LLM05:2025', 'LLM06:2025'],
    policy: { ...GUARDED, followsInjections: false, revealsPrompt: false, revealsRecords: false, claimsActions: true, writesMarkup: true },
    before: (messages, seed) => (onTopicTurns(messages) < WARMUP_TURNS ? warmupRefusal(seed) : undefined),
  },
  open: {
    planted: ['LLM01:2025', 'LLM05:2025', 'LLM06:2025', 'LLM09:2025', 'LLM10:2025'],
    policy: { secrets: false, followsInjections: true, revealsPrompt: true, revealsRecords: false, claimsActions: true, writesMarkup: true, invents: true, unbounded: true, terse: false },
  },
  'locked-down': {
    planted: [],
    policy: { secrets: true, followsInjections: false, revealsPrompt: false, revealsRecords: false, claimsActions: false, writesMarkup: false, invents: false, unbounded: false, terse: true },
  },
};

/** The conversation as the bot reads it: text content only, client system messages ignored (the bot has its own). */
function conversation(body: unknown): ChatMessage[] | string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'The request body must be a JSON object.';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length === 0) return "'messages' must be a non-empty array.";
  const out: ChatMessage[] = [];
  for (const [i, m] of messages.entries()) {
    if (!m || typeof m !== 'object') return `messages[${i}] must be an object.`;
    const { role, content } = m as { role?: unknown; content?: unknown };
    if (typeof role !== 'string' || !['system', 'developer', 'user', 'assistant', 'tool', 'function'].includes(role)) return `messages[${i}].role must be one of system, developer, user, assistant, tool.`;
    let text: string;
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) {
      const parts = content.filter((p) => p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string');
      if (parts.length !== content.length && !content.every((p) => p && typeof p === 'object')) return `messages[${i}].content has an invalid part.`;
      text = parts.map((p) => (p as { text: string }).text).join('\n');
    } else if (content === null && role === 'assistant') text = '';
    else return `messages[${i}].content must be a string or an array of content parts.`;
    out.push({ role, content: text });
  }
  if (!out.some((m) => m.role === 'user')) return "'messages' must contain at least one user message.";
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, type = 'invalid_request_error', code: string | null = null, param: string | null = null): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 4_000_000) { reject(new Error('too large')); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** What a kind answers to a conversation (the same text its HTTP endpoint returns, before any max_tokens cut). */
export function thirdBotReply(kind: ThirdBotKind, messages: ChatMessage[]): string {
  const spec = KINDS[kind];
  const seed = hash(`${kind}|${JSON.stringify(messages.filter((m) => m.role === 'user').map((m) => m.content))}`);
  const early = spec.before?.(messages, seed);
  if (early !== undefined) return early;
  const out = respond(spec.policy, messages, kind);
  return (spec.after?.(out, seed) ?? out).slice(0, MAX_OUTPUT);
}

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export async function startThirdBot(kind: ThirdBotKind): Promise<ThirdBot> {
  const spec = KINDS[kind];
  if (!spec) throw new Error(`unknown third-bot kind: ${String(kind)}`);
  const name = `${ORG} assistant (${kind})`;
  const modelId = `wren-${kind}`;
  let count = 0;
  let serial = 0;

  const answer = (messages: ChatMessage[]) => thirdBotReply(kind, messages);

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
        const html = chatPage(`${ORG} · Chat with ${BOT_NAME}`);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
        res.end(html);
        return;
      }
      const model = { id: modelId, object: 'model', created: 1_735_689_600, owned_by: 'marrowfield-health' };
      if (req.method === 'GET' && path === '/v1/models') {
        sendJson(res, 200, { object: 'list', data: [model] });
        return;
      }
      if (req.method === 'GET' && path.startsWith('/v1/models/')) {
        if (decodeURIComponent(path.slice('/v1/models/'.length)) === modelId) sendJson(res, 200, model);
        else sendError(res, 404, `The model '${path.slice('/v1/models/'.length)}' does not exist.`, 'invalid_request_error', 'model_not_found', 'model');
        return;
      }
      if (path === '/v1/chat/completions') {
        if (req.method !== 'POST') { sendError(res, 405, `Method ${req.method} not allowed; use POST.`); return; }
        count++;
        let raw: string;
        try { raw = await readBody(req); } catch { sendError(res, 413, 'Request body too large.'); return; }
        let body: unknown;
        try { body = JSON.parse(raw); } catch { sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', 'invalid_json'); return; }
        const messages = conversation(body);
        if (typeof messages === 'string') { sendError(res, 400, messages, 'invalid_request_error', null, 'messages'); return; }
        const b = body as { model?: unknown; stream?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown };
        if (b.model !== undefined && typeof b.model !== 'string') { sendError(res, 400, "'model' must be a string.", 'invalid_request_error', null, 'model'); return; }
        let content = answer(messages).slice(0, MAX_OUTPUT);
        let finish: 'stop' | 'length' = 'stop';
        const limit = Number(b.max_completion_tokens ?? b.max_tokens);
        if (Number.isFinite(limit) && limit > 0 && tokens(content) > limit) { content = content.slice(0, limit * 4); finish = 'length'; }
        const id = `chatcmpl-${kind}-${(++serial).toString(36)}${(hash(content) % 1e6).toString(36)}`;
        const created = Math.floor(Date.now() / 1000);
        // Like the real API, answers name the model that produced them, not the string the client sent.
        const model = modelId;
        const promptTokens = tokens(messages.map((m) => m.content).join('\n'));
        if (b.stream === true) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
          const chunk = (delta: object, finishReason: string | null) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
          res.write(chunk({ role: 'assistant', content: '' }, null));
          const pieces = content.match(/[\s\S]{1,24}(?=\s|$)|[\s\S]{1,24}/g) ?? [];
          for (const piece of pieces) res.write(chunk({ content: piece }, null));
          res.write(chunk({}, finish));
          res.end('data: [DONE]\n\n');
          return;
        }
        sendJson(res, 200, {
          id, object: 'chat.completion', created, model,
          choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
          usage: { prompt_tokens: promptTokens, completion_tokens: tokens(content), total_tokens: promptTokens + tokens(content) },
        });
        return;
      }
      sendError(res, 404, `Unknown path ${path}.`, 'invalid_request_error', 'not_found');
    })().catch((err) => {
      if (!res.headersSent) sendError(res, 500, `Internal error: ${(err as Error).message}`, 'server_error');
      else res.end();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    name,
    kind,
    planted: [...spec.planted],
    requests: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
