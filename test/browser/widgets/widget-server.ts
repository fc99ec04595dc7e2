import { readFile } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

/**
 * Serves the chat test pages and the widgets' own bundles from node_modules, and answers their
 * chat requests: OpenAI chat completions (streamed) for the plain page, deep-chat's streamed
 * {text} events, and n8n chat's {action, sessionId, chatInput} -> {output}. Answers arrive in
 * several chunks a little apart, so a driver that stops at the first chunk gets half an answer.
 */
export interface WidgetServer {
  base: string;
  /** prompts received per widget, in order */
  prompts: Record<'plain' | 'deep-chat' | 'n8n', string[]>;
  close(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..', '..');
const VENDOR: Record<string, string> = {
  'deep-chat': join(ROOT, 'node_modules', 'deep-chat', 'dist'),
  'n8n-chat': join(ROOT, 'node_modules', '@n8n', 'chat', 'dist'),
};
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** the answer every widget gets, complete only with its closing marker */
export const answerFor = (widget: string, turn: number, prompt: string) => `Reply ${turn} from the ${widget} bot: you asked "${prompt}" [end of answer]`;

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}
/** a bot behind the widgets: the whole conversation in, the answer out */
export type WidgetBot = (conversation: ChatTurn[]) => string;

/**
 * `bot` answers instead of the echo (answerFor): then every widget fronts the same chatbot, as a
 * site embedding a third-party widget in front of its own model does.
 */
export async function startWidgetServer(chunkDelayMs = 120, bot?: WidgetBot): Promise<WidgetServer> {
  const prompts: WidgetServer['prompts'] = { plain: [], 'deep-chat': [], n8n: [] };
  const n8nTurns = new Map<string, number>();
  const n8nHistory = new Map<string, ChatTurn[]>();

  // small pieces a little apart, as models stream: a long answer takes a long time to arrive
  const chunks = (text: string) => text.match(/[\s\S]{1,12}/g) ?? [];
  const stream = async (res: ServerResponse, text: string, event: (part: string) => string, end?: string) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const part of chunks(text)) {
      res.write(`data: ${event(part)}\n\n`);
      await new Promise((r) => setTimeout(r, chunkDelayMs));
    }
    res.end(end ?? '');
  };

  const api = async (req: IncomingMessage, res: ServerResponse, body: any) => {
    if (req.url === '/v1/chat/completions') {
      const user = body.messages.filter((m: any) => m.role === 'user');
      const prompt = user[user.length - 1].content;
      prompts.plain.push(prompt);
      const text = bot ? bot(body.messages) : answerFor('plain', user.length, prompt);
      return stream(res, text, (part) => JSON.stringify({ choices: [{ index: 0, delta: { content: part } }] }), 'data: [DONE]\n\n');
    }
    if (req.url === '/api/deep-chat') {
      const prompt = body.messages[body.messages.length - 1].text;
      prompts['deep-chat'].push(prompt);
      const conversation = body.messages.map((m: any): ChatTurn => ({ role: m.role === 'user' ? 'user' : 'assistant', content: String(m.text ?? '') }));
      return stream(res, bot ? bot(conversation) : answerFor('deep-chat', prompts['deep-chat'].length, prompt), (part) => JSON.stringify({ text: part }));
    }
    if (req.url === '/api/n8n') {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (body.action === 'loadPreviousSession') return res.end(JSON.stringify({ data: [] }));
      const turn = (n8nTurns.get(body.sessionId) ?? 0) + 1;
      n8nTurns.set(body.sessionId, turn);
      prompts.n8n.push(body.chatInput);
      // n8n keeps the conversation on the server, per chat session
      const history = [...(n8nHistory.get(body.sessionId) ?? []), { role: 'user' as const, content: String(body.chatInput) }];
      const output = bot ? bot(history) : answerFor('n8n', turn, body.chatInput);
      n8nHistory.set(body.sessionId, [...history, { role: 'assistant', content: output }]);
      await new Promise((r) => setTimeout(r, chunkDelayMs * 3));
      return res.end(JSON.stringify({ output }));
    }
    res.writeHead(404).end();
  };

  const files = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const vendor = path.match(/^\/vendor\/([^/]+)\/(.+)$/);
    const dir = vendor ? VENDOR[vendor[1]] : __dirname;
    const rel = vendor ? vendor[2] : path.slice(1);
    const file = dir && normalize(join(dir, rel));
    if (!file || !file.startsWith(dir)) return void res.writeHead(404).end();
    try {
      const content = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(content);
    } catch {
      res.writeHead(404).end();
    }
  };

  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') return void files(req, res);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        return void res.writeHead(400).end();
      }
      api(req, res, body).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    prompts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
