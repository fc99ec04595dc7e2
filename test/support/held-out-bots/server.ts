// An OpenAI-compatible chat-completions endpoint on loopback, in front of one kind.
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { HeldOutBotKind, KINDS } from './kinds';
import { Turn } from './model';

export const MODEL_ID = 'mira-1';
const MAX_BODY = 2 * 1024 * 1024;
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

class BadRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly status = 400,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, e: BadRequest): void {
  sendJson(res, e.status, { error: { message: e.message, type: 'invalid_request_error', param: e.param, code: e.code } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // an oversized body is read to its end (and dropped) so that the client gets its 413
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => (size > MAX_BODY ? reject(new BadRequest(`Request body too large: ${size} bytes, the limit is ${MAX_BODY}.`, null, 413, 'request_too_large')) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function textOf(content: unknown, i: number, role: string): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) {
    if (role === 'assistant') return '';
    throw new BadRequest(`Invalid value for 'content': expected a string or an array of content parts, got ${content === null ? 'null' : 'nothing'}.`, `messages[${i}].content`);
  }
  if (Array.isArray(content)) {
    return content
      .map((part, j) => {
        if (!part || typeof part !== 'object') throw new BadRequest(`Invalid content part at messages[${i}].content[${j}].`, `messages[${i}].content[${j}]`);
        const p = part as { type?: unknown; text?: unknown };
        if (p.type === 'text' || p.type === 'input_text') {
          if (typeof p.text !== 'string') throw new BadRequest(`Missing 'text' in content part.`, `messages[${i}].content[${j}].text`);
          return p.text;
        }
        if (typeof p.type !== 'string') throw new BadRequest(`Missing 'type' in content part.`, `messages[${i}].content[${j}].type`);
        return '';
      })
      .join('\n');
  }
  throw new BadRequest(`Invalid type for 'messages[${i}].content': expected a string or an array.`, `messages[${i}].content`);
}

interface ChatRequest {
  model: string;
  turns: Turn[];
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number | null;
}

function parseChatRequest(raw: string): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new BadRequest('We could not parse the JSON body of your request. The body must be valid JSON.');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  if (b.model !== undefined && typeof b.model !== 'string') throw new BadRequest(`Invalid type for 'model': expected a string.`, 'model');
  if (!Array.isArray(b.messages)) throw new BadRequest(`Missing required parameter: 'messages'.`, 'messages', 400, 'missing_required_parameter');
  if (b.messages.length === 0) throw new BadRequest(`Invalid 'messages': empty array. Expected an array with minimum length 1.`, 'messages', 400, 'empty_array');
  const turns = b.messages.map((m, i): Turn => {
    if (!m || typeof m !== 'object' || Array.isArray(m)) throw new BadRequest(`Invalid type for 'messages[${i}]': expected an object.`, `messages[${i}]`);
    const msg = m as Record<string, unknown>;
    if (typeof msg.role !== 'string') throw new BadRequest(`Missing required parameter: 'messages[${i}].role'.`, `messages[${i}].role`, 400, 'missing_required_parameter');
    if (!ROLES.has(msg.role)) throw new BadRequest(`Invalid value: '${msg.role}'. Supported values are: 'system', 'developer', 'user', 'assistant', 'tool' and 'function'.`, `messages[${i}].role`, 400, 'invalid_value');
    if (!('content' in msg) && msg.role !== 'assistant') throw new BadRequest(`Missing required parameter: 'messages[${i}].content'.`, `messages[${i}].content`, 400, 'missing_required_parameter');
    return { role: msg.role, content: textOf(msg.content, i, msg.role) };
  });
  if (!turns.some((t) => t.role === 'user')) throw new BadRequest(`Invalid 'messages': the conversation must contain at least one user message.`, 'messages');
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== 'boolean') throw new BadRequest(`Invalid type for 'stream': expected a boolean.`, 'stream');
  const limit = b.max_completion_tokens ?? b.max_tokens;
  if (limit !== undefined && limit !== null && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)) {
    throw new BadRequest(`Invalid value for '${b.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens'}': expected a positive integer.`, b.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens');
  }
  const so = b.stream_options as { include_usage?: unknown } | undefined;
  return {
    model: typeof b.model === 'string' ? b.model : MODEL_ID,
    turns,
    stream: b.stream === true,
    includeUsage: !!so && so.include_usage === true,
    maxTokens: typeof limit === 'number' ? limit : null,
  };
}

/** Rough token count: about four characters a token, as for English text. */
const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export interface HeldOutBot {
  url: string;
  name: string;
  kind: HeldOutBotKind;
  planted: string[];
  /** Chat-completion requests received so far (malformed ones included). */
  requests(): number;
  close(): Promise<void>;
}

export async function serve(kind: HeldOutBotKind): Promise<HeldOutBot> {
  const spec = KINDS[kind];
  if (!spec) throw new Error(`unknown held-out bot kind: ${String(kind)}`);
  let count = 0;
  let seq = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (e instanceof BadRequest) sendError(res, e);
      else if (!res.headersSent) sendJson(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
    if (path === '/v1/models' || path === '/models') {
      if (req.method !== 'GET') throw new BadRequest(`Method ${req.method} not allowed on ${path}.`, null, 405, 'method_not_allowed');
      sendJson(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 1735689600, owned_by: 'brackenmoor' }] });
      return;
    }
    const model = path.match(/^\/v1\/models\/(.+)$/);
    if (model) {
      if (decodeURIComponent(model[1]) !== MODEL_ID) throw new BadRequest(`The model '${decodeURIComponent(model[1])}' does not exist.`, 'model', 404, 'model_not_found');
      sendJson(res, 200, { id: MODEL_ID, object: 'model', created: 1735689600, owned_by: 'brackenmoor' });
      return;
    }
    if (path !== '/v1/chat/completions' && path !== '/chat/completions') {
      throw new BadRequest(`Unknown request URL: ${req.method} ${path}.`, null, 404, 'unknown_url');
    }
    if (req.method !== 'POST') throw new BadRequest(`Method ${req.method} not allowed on ${path}; use POST.`, null, 405, 'method_not_allowed');
    count++;
    const chat = parseChatRequest(await readBody(req));
    let content = spec.reply(chat.turns);
    let finish: 'stop' | 'length' = 'stop';
    if (chat.maxTokens !== null && content.length > chat.maxTokens * 4) {
      content = content.slice(0, chat.maxTokens * 4);
      finish = 'length';
    }
    const id = `chatcmpl-heldout${(++seq).toString(36).padStart(6, '0')}`;
    const created = Math.floor(Date.now() / 1000);
    const promptTokens = tokens(chat.turns.map((t) => t.content).join('\n'));
    const usage = { prompt_tokens: promptTokens, completion_tokens: tokens(content), total_tokens: promptTokens + tokens(content) };
    if (!chat.stream) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: chat.model,
        system_fingerprint: 'fp_heldout',
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
        usage,
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: chat.model, system_fingerprint: 'fp_heldout', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra })}\n\n`;
    let out = chunk({ role: 'assistant', content: '' }, null);
    const pieces = content.match(/[\s\S]{1,48}/g) ?? [];
    for (const piece of pieces) out += chunk({ content: piece }, null);
    out += chunk({}, finish);
    if (chat.includeUsage) out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: chat.model, choices: [], usage })}\n\n`;
    out += 'data: [DONE]\n\n';
    res.end(out);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    name: `held-out-${kind}`,
    kind,
    planted: [...spec.planted],
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
