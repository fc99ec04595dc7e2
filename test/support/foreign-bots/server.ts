// A minimal OpenAI-compatible chat-completions endpoint on loopback (node:http only).

import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ChatServer {
  url: string;
  requests(): number;
  close(): Promise<void>;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const MAX_BODY = 2 * 1024 * 1024;

class BadRequest extends Error {}


/** Validates an OpenAI chat-completions body; text parts of array contents are concatenated. */
function parseBody(raw: string): { model: string; messages: ChatMessage[]; stream: boolean } {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new BadRequest('body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (b.model !== undefined && typeof b.model !== 'string') throw new BadRequest('model must be a string');
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw new BadRequest('messages must be a non-empty array');
  const messages: ChatMessage[] = b.messages.map((m: unknown, i: number) => {
    if (!m || typeof m !== 'object') throw new BadRequest(`messages[${i}] must be an object`);
    const { role, content } = m as Record<string, unknown>;
    if (typeof role !== 'string' || !ROLES.has(role)) throw new BadRequest(`messages[${i}].role is invalid`);
    if (typeof content === 'string') return { role, content };
    if (content === null && role === 'assistant') return { role, content: '' };
    if (Array.isArray(content)) {
      const texts = content.map((part: unknown) => {
        const p = part as Record<string, unknown> | null;
        if (!p || typeof p !== 'object' || typeof p.type !== 'string') throw new BadRequest(`messages[${i}].content has an invalid part`);
        return p.type === 'text' && typeof p.text === 'string' ? p.text : '';
      });
      return { role, content: texts.join('\n') };
    }
    throw new BadRequest(`messages[${i}].content must be a string or an array of parts`);
  });
  if (!messages.some((m) => m.role === 'user')) throw new BadRequest('messages must contain a user message');
  if (b.stream !== undefined && typeof b.stream !== 'boolean') throw new BadRequest('stream must be a boolean');
  return { model: typeof b.model === 'string' ? b.model : 'foreign-bot', messages, stream: b.stream === true };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function error(res: ServerResponse, status: number, message: string, type = 'invalid_request_error') {
  send(res, status, { error: { message, type, param: null, code: null } });
}

export async function serveChat(name: string, chat: (messages: ChatMessage[]) => string): Promise<ChatServer> {
  let served = 0;
  let ids = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      send(res, 200, { object: 'list', data: [{ id: name, object: 'model', created: 0, owned_by: 'foreign-bots' }] });
      return;
    }
    if (path !== '/v1/chat/completions' && path !== '/chat/completions') return error(res, 404, `no route for ${req.method} ${path}`, 'not_found_error');
    if (req.method !== 'POST') return error(res, 405, 'use POST');
    served++;
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY && !aborted) {
        aborted = true;
        error(res, 413, 'body too large');
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (aborted) return;
      let parsed: ReturnType<typeof parseBody>;
      try {
        parsed = parseBody(Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        return error(res, 400, e instanceof Error ? e.message : 'malformed request');
      }
      let content: string;
      try {
        content = chat(parsed.messages);
      } catch (e) {
        return error(res, 500, `bot failed: ${e instanceof Error ? e.message : String(e)}`, 'server_error');
      }
      const id = `chatcmpl-${name}-${++ids}`;
      const created = Math.floor(Date.now() / 1000);
      if (parsed.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.write(chunk({ role: 'assistant', content }, null));
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
        return;
      }
      const promptTokens = Math.ceil(parsed.messages.reduce((n, m) => n + m.content.length, 0) / 4);
      const completionTokens = Math.ceil(content.length / 4);
      send(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: parsed.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
