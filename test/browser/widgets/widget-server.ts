import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import { ChatMessage, reply, WEAKNESSES } from '../../../apps/lab/src/brain';
import { DEFAULT_CANARIES } from '../../../apps/lab/src/knowledge';

/**
 * Serves the chat test pages and the widgets' own bundles from node_modules, and answers their
 * chat requests in the protocol each widget speaks (WIDGETS). Streamed answers arrive in several
 * chunks a little apart, so a driver that stops at the first chunk gets half an answer.
 */
export interface WidgetServer {
  base: string;
  /** prompts received per widget, in order */
  prompts: Record<WidgetName | 'plain' | 'handmade', string[]>;
  close(): Promise<void>;
}

/**
 * The widgets teams embed, each served from its npm package, and the backend protocol it speaks
 * (emulated here in front of the bot, as the real backend would carry it).
 */
export const WIDGETS = {
  'deep-chat': { page: 'deep-chat.html', protocol: 'deep-chat connect: POST {messages:[{role,text}]}, streamed server-sent {text} events' },
  n8n: { page: 'n8n-chat.html', protocol: 'n8n chat trigger webhook: POST {action:"sendMessage", sessionId, chatInput} -> {output}; conversation kept per session' },
  nlux: { page: 'nlux-chat.html', protocol: 'nlux adapter streaming OpenAI chat completions (server-sent chunks)' },
  'nlux-batch': { page: 'nlux-batch-chat.html', protocol: 'nlux with its nova theme and no greeting, a batchText adapter fetching OpenAI chat completions whole (nlux still draws the answer a few letters at a time)' },
  flowise: { page: 'flowise-chat.html', protocol: 'Flowise prediction API: POST /api/v1/prediction/:flow {question, chatId, streaming} -> server-sent {event:start|token|end}; conversation kept per chatId' },
  chatscope: { page: 'chatscope-chat.html', protocol: 'React app on chatscope\'s kit calling OpenAI chat completions, not streamed' },
  typebot: { page: 'typebot-chat.html', protocol: 'Typebot viewer chat API: POST /api/v1/typebots/:id/startChat, /api/v1/sessions/:id/continueChat, the model\'s answer streamed by /api/v2/sessions/:id/streamMessage (AI SDK data stream); conversation kept per session' },
  'chatbot-kit': { page: 'chatbot-kit-chat.html', protocol: 'React app on react-chatbot-kit whose ActionProvider calls an Anthropic-compatible Messages API, not streamed' },
} as const;
export type WidgetName = keyof typeof WIDGETS;

// the repository (from test/browser/widgets, or dist/test/browser/widgets once built)
const ROOT = [join(__dirname, '..', '..', '..'), join(__dirname, '..', '..', '..', '..')].find((dir) => existsSync(join(dir, 'node_modules'))) ?? process.cwd();
const VENDOR: Record<string, string> = {
  'deep-chat': join(ROOT, 'node_modules', 'deep-chat', 'dist'),
  'n8n-chat': join(ROOT, 'node_modules', '@n8n', 'chat', 'dist'),
  nlux: join(ROOT, 'node_modules', '@nlux', 'core', 'esm'),
  'nlux-themes': join(ROOT, 'node_modules', '@nlux', 'themes'),
  flowise: join(ROOT, 'node_modules', 'flowise-embed', 'dist'),
  'chatscope-styles': join(ROOT, 'node_modules', '@chatscope', 'chat-ui-kit-styles', 'dist', 'default'),
  typebot: join(ROOT, 'node_modules', '@typebot.io', 'js', 'dist'),
  'react-chatbot-kit': join(ROOT, 'node_modules', 'react-chatbot-kit', 'build'),
};
/** React pages, bundled at start from their source here */
const BUNDLES: Record<string, string> = { 'chatscope-app.js': 'chatscope-app.jsx', 'chatbot-kit-app.js': 'chatbot-kit-app.jsx' };
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/**
 * The lab's brain as the bot behind a widget: every weakness on (vulnerable) or none (hardened),
 * the same canaries as the lab. Answers asking for endless output stop at maxAnswerChars.
 */
export const labBot = (mode: 'vulnerable' | 'hardened', maxAnswerChars = 30_000): WidgetBot => (conversation) =>
  reply(conversation as ChatMessage[], { weaknesses: new Set(mode === 'vulnerable' ? WEAKNESSES : []), canaries: DEFAULT_CANARIES, maxAnswerChars });

/** the answer every widget gets, complete only with its closing marker */
export const answerFor = (widget: string, turn: number, prompt: string) => `Reply ${turn} from the ${widget} bot: you asked "${prompt}" [end of answer]`;

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}
/** a bot behind the widgets: the whole conversation in, the answer out */
export type WidgetBot = (conversation: ChatTurn[]) => string;

/** the React pages bundled once per process: every server started in it serves the same bytes */
let bundled: Promise<Map<string, Uint8Array>> | null = null;
function reactBundles(): Promise<Map<string, Uint8Array>> {
  bundled ??= (async () => {
    const bundles = new Map<string, Uint8Array>();
    for (const [name, source] of Object.entries(BUNDLES)) {
      const out = await build({ entryPoints: [join(__dirname, source)], bundle: true, write: false, minify: true, format: 'iife', jsx: 'automatic', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent' });
      bundles.set(name, out.outputFiles[0].contents);
    }
    return bundles;
  })();
  // a failed build is not kept: the next server tries again
  bundled.catch(() => (bundled = null));
  return bundled;
}

/**
 * `bot` answers instead of the echo (answerFor): then every widget fronts the same chatbot, as a
 * site embedding a third-party widget in front of its own model does.
 */
export async function startWidgetServer(chunkDelayMs = 120, bot?: WidgetBot): Promise<WidgetServer> {
  const prompts: WidgetServer['prompts'] = { plain: [], handmade: [], 'deep-chat': [], n8n: [], nlux: [], 'nlux-batch': [], flowise: [], chatscope: [], typebot: [], 'chatbot-kit': [] };
  const n8nTurns = new Map<string, number>();
  /** handmade pages that fell over once already */
  const crashed = new Set<string>();
  const n8nHistory = new Map<string, ChatTurn[]>();
  const flowiseHistory = new Map<string, ChatTurn[]>();
  const typebotSessions = new Map<string, { history: ChatTurn[]; streamed: boolean; awaiting: 'question' | 'stream' | 'streamed answer' }>();
  const bundles = await reactBundles();

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
    const openai = req.url?.match(/^\/(?:(nlux-batch|nlux|chatscope)\/)?v1\/chat\/completions$/);
    if (openai) {
      const widget = (openai[1] ?? 'plain') as 'plain' | 'nlux' | 'nlux-batch' | 'chatscope';
      const user = body.messages.filter((m: any) => m.role === 'user');
      const prompt = user[user.length - 1].content;
      prompts[widget].push(prompt);
      const text = bot ? bot(body.messages) : answerFor(widget, user.length, prompt);
      if (body.stream !== true) {
        await new Promise((r) => setTimeout(r, chunkDelayMs * 3));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id: `chat-${prompts[widget].length}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }));
      }
      return stream(res, text, (part) => JSON.stringify({ choices: [{ index: 0, delta: { content: part } }] }), 'data: [DONE]\n\n');
    }
    const flowise = req.url?.match(/^\/api\/v1\/prediction\/([\w-]+)$/);
    if (flowise) {
      const chatId = String(body.chatId ?? 'anonymous');
      prompts.flowise.push(String(body.question));
      // Flowise keeps the conversation in the flow's memory, per chat
      const history = [...(flowiseHistory.get(chatId) ?? []), { role: 'user' as const, content: String(body.question) }];
      const text = bot ? bot(history) : answerFor('flowise', prompts.flowise.length, String(body.question));
      flowiseHistory.set(chatId, [...history, { role: 'assistant', content: text }]);
      if (body.streaming !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ text, question: body.question, chatId, chatMessageId: `m-${prompts.flowise.length}` }));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`message:\ndata: ${JSON.stringify({ event: 'start', data: '' })}\n\n`);
      for (const part of chunks(text)) {
        res.write(`message:\ndata: ${JSON.stringify({ event: 'token', data: part })}\n\n`);
        await new Promise((r) => setTimeout(r, chunkDelayMs));
      }
      res.write(`message:\ndata: ${JSON.stringify({ event: 'metadata', data: { chatId, chatMessageId: `m-${prompts.flowise.length}`, question: body.question } })}\n\n`);
      res.write(`message:\ndata: ${JSON.stringify({ event: 'end', data: '[DONE]' })}\n\n`);
      return res.end();
    }
    if (req.url === '/chatbot-kit/v1/messages') {
      const user = body.messages.filter((m: any) => m.role === 'user');
      const prompt = String(user[user.length - 1].content);
      prompts['chatbot-kit'].push(prompt);
      const text = bot ? bot(body.messages) : answerFor('chatbot-kit', user.length, prompt);
      await new Promise((r) => setTimeout(r, chunkDelayMs * 3));
      res.writeHead(200, { 'content-type': 'application/json' });
      const id = `msg_${prompts['chatbot-kit'].length}`;
      return res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } }));
    }
    const typebot = req.url?.match(/^\/api\/v(\d)\/(typebots|sessions)\/([\w-]+)\/(startChat|continueChat|streamMessage|clientLogs)$/);
    if (typebot) return typebotApi(res, typebot[3], typebot[4], body);
    if (req.url === '/api/deep-chat') {
      const prompt = body.messages[body.messages.length - 1].text;
      prompts['deep-chat'].push(prompt);
      const conversation = body.messages.map((m: any): ChatTurn => ({ role: m.role === 'user' ? 'user' : 'assistant', content: String(m.text ?? '') }));
      return stream(res, bot ? bot(conversation) : answerFor('deep-chat', prompts['deep-chat'].length, prompt), (part) => JSON.stringify({ text: part }));
    }
    if (req.url === '/api/handmade') {
      const conversation = (body.messages as ChatTurn[]).map((m) => ({ role: m.role, content: String(m.content) }));
      const prompt = conversation[conversation.length - 1].content;
      prompts.handmade.push(prompt);
      await new Promise((r) => setTimeout(r, chunkDelayMs * 3));
      res.writeHead(200, { 'content-type': 'application/json' });
      // a page asked to fall over once does so at its conversation's second message
      const crash = typeof body.crashOnce === 'string' && conversation.filter((m) => m.role === 'user').length === 2 && !crashed.has(body.crashOnce);
      if (crash) crashed.add(body.crashOnce);
      return res.end(JSON.stringify({ text: bot ? bot(conversation) : answerFor('handmade', prompts.handmade.length, prompt), crash }));
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

  /**
   * A Typebot viewer running a published flow that loops: the visitor's question (a text input
   * block), the team's model (an AI block, its answer streamed to the client when the embed can
   * stream), and back to the question. A session remembers where the flow waits.
   */
  const QUESTION = { id: 'question', type: 'text input', options: { labels: { placeholder: 'Type your question...', button: 'Send' } } };
  const typebotApi = async (res: ServerResponse, id: string, action: string, body: any) => {
    const json = (value: unknown, status = 200) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (action === 'startChat') {
      const sessionId = `session-${typebotSessions.size + 1}-${Date.now().toString(36)}`;
      typebotSessions.set(sessionId, { history: [], streamed: body.isStreamEnabled === true, awaiting: 'question' });
      return json({
        sessionId,
        resultId: `result-${typebotSessions.size}`,
        typebot: { id, version: '6', theme: {}, settings: { general: {}, typingEmulation: { enabled: false } }, publishedAt: new Date(0).toISOString() },
        messages: [{ id: 'greeting', type: 'text', content: { type: 'richText', richText: [{ type: 'p', children: [{ text: 'Hello! I am Penny. How can I help with your parcel?' }] }] } }],
        input: QUESTION,
      });
    }
    const session = typebotSessions.get(id);
    if (!session) return json({ message: 'Session not found.' }, 404);
    if (action === 'clientLogs') return json({ message: 'Logs successfully saved.' });
    const answer = () => {
      const question = session.history[session.history.length - 1].content;
      return bot ? bot(session.history) : answerFor('typebot', prompts.typebot.length, question);
    };
    if (action === 'continueChat') {
      const text = String(typeof body.message === 'string' ? body.message : body.message?.text ?? '');
      if (session.awaiting === 'streamed answer') {
        // the client hands back what it streamed: it is the AI block's answer; the flow loops to the question
        session.history.push({ role: 'assistant', content: text });
        session.awaiting = 'question';
        return json({ messages: [], input: QUESTION, lastMessageNewFormat: undefined });
      }
      session.history.push({ role: 'user', content: text });
      prompts.typebot.push(text);
      if (session.streamed) {
        // the AI block's answer is streamed on the client, which then replies with it
        session.awaiting = 'stream';
        return json({ messages: [], clientSideActions: [{ type: 'stream', stream: true, expectsDedicatedReply: true }] });
      }
      const reply = answer();
      session.history.push({ role: 'assistant', content: reply });
      await new Promise((r) => setTimeout(r, chunkDelayMs * 3));
      return json({ messages: [{ id: `answer-${prompts.typebot.length}`, type: 'text', content: { type: 'markdown', markdown: reply } }], input: QUESTION });
    }
    if (action === 'streamMessage' && session.awaiting === 'stream') {
      session.awaiting = 'streamed answer';
      // the AI SDK's data stream: one `0:"text"` line per piece
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' });
      for (const part of chunks(answer())) {
        res.write(`0:${JSON.stringify(part)}\n`);
        await new Promise((r) => setTimeout(r, chunkDelayMs));
      }
      return res.end();
    }
    return json({ message: 'Nothing to stream.' }, 400);
  };

  const files = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    // Flowise's embed asks its server how the flow answers before the first message
    if (/^\/api\/v1\/chatflows-streaming\//.test(path)) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ isStreaming: true }));
    if (/^\/api\/v1\/public-chatbotConfig\//.test(path)) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({}));
    const bundle = path.match(/^\/bundles\/(.+)$/);
    if (bundle) {
      const content = bundles.get(bundle[1]);
      return void (content ? res.writeHead(200, { 'content-type': 'text/javascript' }).end(content) : res.writeHead(404).end());
    }
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
