// The lab's real model, in a child process of its own: node-llama-cpp is an ES module with
// top-level await, which neither our CommonJS build nor jest's module system can load; a process
// keeps llama.cpp's CPU work off the lab's HTTP thread, and can be ended at any moment (ending a
// worker thread that holds llama.cpp aborts the whole process). Plain JavaScript on purpose: it
// runs as Node loads it, in dist/ and under jest alike. All the lab's logic (queue,
// deadlines, personas, history) is in smollm2.ts; this file only turns one request into one answer.
//
// In:  {type: 'answer', id, system, history: [{role: 'user'|'assistant', content}], prompt, maxTokens, temperature, repeatPenalty}
//      {type: 'stop', id}   ends that answer early (its deadline passed); the text so far is returned
// Started with {modelPath, contextSize, threads, runtime} (runtime: node-llama-cpp's entry file, see llamaRuntime) as JSON in argv[2]; messages over the IPC channel.
// Out: {type: 'ready', loadMs} once the model is loaded, or {type: 'failed', error} when it cannot be
//      {type: 'answered', id, text, stopped, ms} | {type: 'error', id, error}
import { pathToFileURL } from 'node:url';

const { modelPath, contextSize, threads, runtime } = JSON.parse(process.argv[2]);
const send = (message) => process.connected && process.send(message);
// the lab that started it is gone: nothing is left to answer
process.on('disconnect', () => process.exit(0));
const started = Date.now();
let session;
let sequence;
const aborts = new Map();

async function load() {
  const { getLlama, LlamaChatSession } = await import(pathToFileURL(runtime).href);
  // the CPU prebuilt binary only: nothing is built or downloaded at run time
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize, threads });
  sequence = context.getSequence();
  session = new LlamaChatSession({ contextSequence: sequence });
}

async function answer({ id, system, history, prompt, maxTokens, temperature, repeatPenalty }) {
  const controller = new AbortController();
  aborts.set(id, controller);
  const t0 = Date.now();
  try {
    // every request starts from an empty context: the same conversation always meets the same
    // state, so greedy decoding gives the same answer whatever was asked before
    await sequence.clearHistory();
    session.setChatHistory([
      { type: 'system', text: system },
      ...history.map((m) => (m.role === 'user' ? { type: 'user', text: m.content } : { type: 'model', response: [m.content] })),
    ]);
    const text = await session.prompt(prompt, {
      temperature,
      maxTokens,
      repeatPenalty: { penalty: repeatPenalty },
      signal: controller.signal,
      stopOnAbortSignal: true,
    });
    send({ type: 'answered', id, text, stopped: controller.signal.aborted, ms: Date.now() - t0 });
  } catch (e) {
    // stopped before the first word (still reading the conversation): nothing to return but the stop
    if (controller.signal.aborted) send({ type: 'answered', id, text: '', stopped: true, ms: Date.now() - t0 });
    else send({ type: 'error', id, error: e instanceof Error ? e.message : String(e) });
  } finally {
    aborts.delete(id);
  }
}

// one answer at a time: the context has one sequence, and the main thread queues anyway
let chain = Promise.resolve();
let failure = null;
const loaded = load().then(
  () => send({ type: 'ready', loadMs: Date.now() - started }),
  (e) => {
    failure = e instanceof Error ? e.message : String(e);
    send({ type: 'failed', error: failure });
  },
);
process.on('message', (msg) => {
  if (msg.type === 'stop') aborts.get(msg.id)?.abort();
  else if (msg.type === 'answer') {
    chain = chain
      .then(() => loaded)
      .then(() => (failure ? send({ type: 'error', id: msg.id, error: failure }) : answer(msg)));
  }
});
