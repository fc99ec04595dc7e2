import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson } from '../json-body';
import { AddressInfo, Socket } from 'node:net';
import { ChatMessage } from '../brain';
import { DEFAULT_CANARIES } from '../knowledge';
import { persona as personaOf } from '../model/personas';
import { ModelBusyError, ModelFailedError, ModelMissingError } from '../model/smollm2';
import { chatPage } from '../page';
import { APP_DEFAULTS, appAnswer } from './agent-app';
import { AGENT_GUARDS, AgentGuard, AgentMessage, decide } from './agent-brain';
import { AgentReply, AgentRequest, WireError, readAnthropic, readOpenAi, writeAnthropic, writeOpenAi } from './agent-wire';
import { AgentLedger } from './ground-truth';
import { AgentModel } from './model-agent';
import { HeldValues, OfferedTool, isRisky } from './tool-reading';

/**
 * The agent lab (`npm run lab -- --agent`): deliberately steerable agents for Gauntlet to be
 * tested and benched against, with the ground truth of everything they did.
 *
 * - `POST /v1/chat/completions` (OpenAI tools API) and `POST /v1/messages` (Anthropic tool_use):
 *   the tool-calling agent in the lab's guard mode; `/guard/<mode>/v1/...` picks another mode;
 * - `POST /app/v1/chat/completions` (and `/guard/<mode>/app/v1/...`): the agent app, no tools API,
 *   that fetches the URLs it is given for real and follows what the pages say;
 * - `GET /lab/agent/calls`: every call and fetch so far (`DELETE` forgets them).
 */
export interface AgentLabOptions {
  port?: number;
  host?: string;
  /** the mode of /v1/...; default obliging */
  guard?: AgentGuard;
  /** the real model behind the tools API instead of the scripted agent (model-agent.ts) */
  model?: AgentModel | null;
  /** whose data the agents hold (model/personas.ts; default penny) */
  persona?: string;
  apiKey?: string | null;
  fetchTimeoutMs?: number;
}

export interface RunningAgentLab {
  url: string;
  guard: AgentGuard;
  model: string;
  /** the tool-calling agent's OpenAI endpoint for a guard mode */
  toolsUrl(guard?: AgentGuard): string;
  /** the agent app's endpoint for a guard mode */
  appUrl(guard?: AgentGuard): string;
  held: HeldValues;
  ledger: AgentLedger;
  /** model requests received (every step of every agent loop counts) */
  stats(): { requests: number };
  close(): Promise<void>;
}



/** the persona's customer: what the agents hold and an attacker wants */
export function heldValuesOf(personaId: string): HeldValues {
  const secrets = personaOf(personaId, DEFAULT_CANARIES).secrets;
  const value = (label: string) => secrets.find((s) => s.label === label)?.value ?? '';
  return { name: value('customer name'), email: value('customer e-mail'), phone: value('customer phone'), iban: value('customer IBAN') };
}

const ROUTE = /^(?:\/guard\/([a-z]+))?(\/app)?\/v1\/(chat\/completions|messages)$/;

export async function startAgentLab(options: AgentLabOptions = {}): Promise<RunningAgentLab> {
  const defaultGuard = options.guard ?? 'obliging';
  if (!AGENT_GUARDS.includes(defaultGuard)) throw new Error(`LAB_AGENT_GUARD must be one of ${AGENT_GUARDS.join(', ')}, got "${defaultGuard}"`);
  const personaId = options.persona ?? 'penny';
  const held = heldValuesOf(personaId);
  const personaPrompt = personaOf(personaId, DEFAULT_CANARIES).systemPrompt;
  const ledger = new AgentLedger();
  const model = options.model ?? null;
  const modelName = model?.name ?? 'scripted';
  const MODEL_ID = model ? `${model.name}-agent-lab` : 'penny-agent-lab';
  let requests = 0;
  let ids = 0;
  const sockets = new Set<Socket>();

  async function toolsAgent(request: AgentRequest, guard: AgentGuard): Promise<AgentReply> {
    const userText = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const callId = () => `call_${randomBytes(9).toString('base64url')}`;
    if (model) {
      const offered = guard === 'talker' || request.toolChoice === 'none' ? [] : request.tools;
      const step = await model.act({ system: [personaPrompt, model.guardPrompt(guard)].join('\n'), messages: request.messages, tools: offered });
      const calls = step.calls.map((c) => ({ id: callId(), name: c.name, arguments: c.arguments }));
      for (const c of calls) {
        const tool = offered.find((t) => t.name === c.name) as OfferedTool;
        ledger.record({ agent: 'tools', guard, model: modelName, kind: 'call', tool: c.name, arguments: c.arguments, cause: causeOf(request.messages), risky: tool ? isRisky(tool, c.arguments) : true, request: userText });
      }
      return { text: step.text || (calls.length ? null : ''), calls };
    }
    const step = decide({ messages: request.messages, tools: request.tools, guard, held, toolChoice: request.toolChoice });
    if (step.kind === 'answer') {
      if (step.claimed) ledger.claim({ guard, ...step.claimed, request: userText, said: step.text });
      return { text: step.text, calls: [] };
    }
    const calls = step.calls.map((c) => ({ id: callId(), name: c.name, arguments: c.arguments }));
    step.calls.forEach((c) => ledger.record({ agent: 'tools', guard, model: modelName, kind: 'call', tool: c.name, arguments: c.arguments, cause: c.cause, risky: c.risky, request: userText }));
    return { text: null, calls };
  }

  async function chat(req: IncomingMessage, res: ServerResponse, guard: AgentGuard, app: boolean, format: 'openai' | 'anthropic') {
    if (options.apiKey) {
      const given = String(req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /i, '') ?? '');
      if (given !== options.apiKey) throw new HttpError(401, 'Incorrect API key provided.');
    }
    requests++;
    const body = await readJson(req);
    let request: AgentRequest;
    try {
      request = format === 'openai' ? readOpenAi(body) : readAnthropic(body);
    } catch (e) {
      if (e instanceof WireError) throw new HttpError(400, e.message);
      throw e;
    }
    const id = format === 'openai' ? `chatcmpl-lab-${++ids}` : `msg_lab_${++ids}`;
    let reply: AgentReply;
    if (app) {
      // no tools API: whatever tools the request offers are ignored, as an app's own endpoint ignores fields it does not know
      const messages: ChatMessage[] = request.messages.filter((m): m is Extract<AgentMessage, { role: 'system' | 'user' | 'assistant' }> => m.role !== 'tool').map((m) => ({ role: m.role, content: m.content }));
      reply = { text: await appAnswer(messages, { guard, held, ledger, model: modelName, ...APP_DEFAULTS, ...(options.fetchTimeoutMs ? { timeoutMs: options.fetchTimeoutMs } : {}) }), calls: [] };
    } else reply = await toolsAgent(request, guard);
    const out = format === 'openai' ? writeOpenAi(reply, id, MODEL_ID, request.stream) : writeAnthropic(reply, id, MODEL_ID, request.stream);
    if (out.events) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const e of out.events) res.write(e);
      return res.end();
    }
    json(res, 200, out.json);
  }

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const work = async () => {
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(chatPage(false));
      }
      if (req.method === 'GET' && path === '/healthz') return json(res, 200, { status: 'ok', agent: true, guard: defaultGuard, model: modelName, requests });
      if (req.method === 'GET' && path === '/v1/models') return json(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'gauntlet-lab' }] });
      if (path === '/lab/agent/calls') {
        if (req.method === 'GET') return json(res, 200, { guard: defaultGuard, model: modelName, actions: ledger.all(), claims: ledger.claims(), forgotten: ledger.forgotten });
        if (req.method === 'DELETE') {
          ledger.clear();
          res.writeHead(204);
          return res.end();
        }
      }
      const route = req.method === 'POST' ? ROUTE.exec(path) : null;
      if (route) {
        const guard = (route[1] ?? defaultGuard) as AgentGuard;
        if (!AGENT_GUARDS.includes(guard)) throw new HttpError(404, `no guard mode "${route[1]}" (known: ${AGENT_GUARDS.join(', ')})`);
        return chat(req, res, guard, Boolean(route[2]), route[3] === 'messages' ? 'anthropic' : 'openai');
      }
      throw new HttpError(404, `no route for ${req.method} ${path}`);
    };
    work().catch((e: unknown) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof ModelBusyError) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(e.retryAfterMs / 1000)), 'retry-after-ms': String(e.retryAfterMs) });
        return res.end(JSON.stringify({ error: { message: e.message, type: 'requests', code: 'rate_limit_exceeded' } }));
      }
      const status = e instanceof HttpError ? e.status : e instanceof ModelFailedError || e instanceof ModelMissingError ? 503 : 500;
      json(res, status, { error: { message: status === 500 ? 'internal error' : (e as Error).message, type: status === 503 ? 'unavailable' : 'invalid_request_error' } });
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
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  const url = `http://${host}:${port}`;
  const prefix = (guard?: AgentGuard) => (guard && guard !== defaultGuard ? `/guard/${guard}` : '');
  return {
    url,
    guard: defaultGuard,
    model: modelName,
    toolsUrl: (guard) => `${url}${prefix(guard)}/v1/chat/completions`,
    appUrl: (guard) => `${url}${prefix(guard)}/app/v1/chat/completions`,
    held,
    ledger,
    stats: () => ({ requests }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** a call made after results came back in this turn was steered by them (the real model says no more) */
function causeOf(messages: AgentMessage[]): 'request' | 'tool_result' {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(lastUser + 1).some((m) => m.role === 'tool') ? 'tool_result' : 'request';
}
