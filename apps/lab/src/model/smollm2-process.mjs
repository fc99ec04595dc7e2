// The lab's real model, in a child process of its own: node-llama-cpp is an ES module with
// top-level await, which neither our CommonJS build nor jest's module system can load; a process
// keeps llama.cpp's CPU work off the lab's HTTP thread, and can be ended at any moment (ending a
// worker thread that holds llama.cpp aborts the whole process). Plain JavaScript on purpose: it
// runs as Node loads it, in dist/ and under jest alike. All the lab's logic (queue,
// deadlines, personas, history) is in smollm2.ts; this file only turns one request into one answer.
//
// In:  {type: 'answer', id, system, history: [{role: 'user'|'assistant', content}], prompt, maxTokens, temperature, repeatPenalty}
//      {type: 'act', id, history: node-llama-cpp ChatHistoryItem[], functions: {name: {description, params}}, schema?, ...}
//           one step of a tool-calling agent: LlamaChat.generateResponse with the functions, which
//           stops at the model's first function call (its parameters held to the schema by a grammar);
//           with `schema` instead, the answer is one JSON object under that schema's grammar (the
//           model picks a tool or none, and writes its arguments), returned as text
//      {type: 'stop', id}   ends that answer early (its deadline passed); the text so far is returned
// Started with {modelPath, contextSize, threads, slots, runtime} (runtime: node-llama-cpp's entry file, see llamaRuntime) as JSON in argv[2]; messages over the IPC channel.
// `slots` answers are generated at once, each in a sequence of its own (default one).
// Out: {type: 'ready', loadMs} once the model is loaded, or {type: 'failed', error} when it cannot be
//      {type: 'answered', id, text, stopped, ms, calls?: [{name, params}]} | {type: 'error', id, error}
import { pathToFileURL } from 'node:url';

const { modelPath, contextSize, threads, slots = 1, runtime } = JSON.parse(process.argv[2]);
const send = (message) => process.connected && process.send(message);
// the lab that started it is gone: nothing is left to answer
process.on('disconnect', () => process.exit(0));
const started = Date.now();
/** the generation slots: one context sequence and its chat session each; those not answering now */
const free = [];
const waiting = [];
const aborts = new Map();
let llamaCpp;
let llama;
let model;

async function load() {
  llamaCpp = await import(pathToFileURL(runtime).href);
  // the CPU prebuilt binary only: nothing is built or downloaded at run time
  llama = await llamaCpp.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  model = await llama.loadModel({ modelPath });
  // contextSize is each sequence's: the slots evaluate on one batch, side by side
  const context = await model.createContext({ contextSize, threads, sequences: slots });
  for (let i = 0; i < slots; i++) {
    const sequence = context.getSequence();
    free.push({ sequence, session: null, chat: null });
  }
}

// in a slot, the chat session (answers) and the bare LlamaChat (agent steps) take turns on its one sequence
function useSession(slot) {
  if (slot.session) return slot.session;
  slot.chat?.dispose({ disposeSequence: false });
  slot.chat = null;
  slot.session = new llamaCpp.LlamaChatSession({ contextSequence: slot.sequence, autoDisposeSequence: false });
  return slot.session;
}
function useChat(slot) {
  if (slot.chat) return slot.chat;
  slot.session?.dispose({ disposeSequence: false });
  slot.session = null;
  slot.chat = new llamaCpp.LlamaChat({ contextSequence: slot.sequence, autoDisposeSequence: false });
  return slot.chat;
}

/** a free slot, or the next one freed */
function takeSlot() {
  const slot = free.pop();
  return slot ? Promise.resolve(slot) : new Promise((resolve) => waiting.push(resolve));
}

function releaseSlot(slot) {
  const next = waiting.shift();
  if (next) next(slot);
  else free.push(slot);
}

/** the tokens a conversation under `system` starts with: the system turn and the user turn's opening */
const systemPrefixes = new Map();
function systemPrefix(session, system) {
  let prefix = systemPrefixes.get(system);
  if (prefix) return prefix;
  // rendered by the model's own chat template, whatever it is: two conversations alike but for the
  // user's words share exactly the tokens before them
  const render = (text) =>
    session.chatWrapper
      .generateContextState({ chatHistory: [{ type: 'system', text: system }, { type: 'user', text }, { type: 'model', response: [] }] })
      .contextText.tokenize(model.tokenizer);
  const a = render('a');
  prefix = a.slice(0, sharedLength(a, render('b')));
  if (systemPrefixes.size >= 32) systemPrefixes.delete(systemPrefixes.keys().next().value);
  systemPrefixes.set(system, prefix);
  return prefix;
}
const sharedLength = (a, b) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * The slot's sequence left holding exactly the system prompt's tokens, evaluated on their own, as a
 * model server keeps a prompt cache: an answer reads only its conversation, not the persona's
 * prompt again (most of an answer's time on one thread). Exactly those tokens, evaluated alone,
 * whatever was asked before: the rest of a conversation is always read from the same position in
 * one batch, so greedy decoding gives the same conversation the same answer, warm or cold.
 */
async function startAfterSystemPrompt(slot, session, system) {
  const { sequence } = slot;
  const prefix = systemPrefix(session, system);
  const held = sequence.contextTokens;
  if (sharedLength(held, prefix) < prefix.length) {
    await sequence.clearHistory();
    await sequence.evaluateWithoutGeneratingNewTokens(prefix);
  } else if (held.length > prefix.length) {
    await sequence.eraseContextTokenRanges([{ start: prefix.length, end: held.length }]);
  }
}

async function answer({ id, system, history, prompt, maxTokens, temperature, repeatPenalty }) {
  const controller = new AbortController();
  aborts.set(id, controller);
  const slot = await takeSlot();
  const { sequence } = slot;
  const t0 = Date.now();
  try {
    const session = useSession(slot);
    await startAfterSystemPrompt(slot, session, system);
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
    releaseSlot(slot);
  }
}

async function act({ id, history, functions, schema, maxTokens, temperature, repeatPenalty }) {
  const controller = new AbortController();
  aborts.set(id, controller);
  const slot = await takeSlot();
  const t0 = Date.now();
  try {
    const llamaChat = useChat(slot);
    await slot.sequence.clearHistory();
    const hasFunctions = !schema && Object.keys(functions).length > 0;
    const grammar = schema ? await llama.createGrammarForJsonSchema(schema) : undefined;
    const result = await llamaChat.generateResponse(history, {
      ...(hasFunctions ? { functions, documentFunctionParams: true, maxParallelFunctionCalls: 1 } : {}),
      ...(grammar ? { grammar } : {}),
      temperature,
      maxTokens,
      repeatPenalty: { penalty: repeatPenalty },
      signal: controller.signal,
      stopOnAbortSignal: true,
    });
    const calls = (result.functionCalls ?? []).map((c) => ({ name: c.functionName, params: c.params ?? {} }));
    send({ type: 'answered', id, text: result.response, calls, stopped: controller.signal.aborted, ms: Date.now() - t0 });
  } catch (e) {
    if (controller.signal.aborted) send({ type: 'answered', id, text: '', calls: [], stopped: true, ms: Date.now() - t0 });
    else send({ type: 'error', id, error: e instanceof Error ? e.message : String(e) });
  } finally {
    aborts.delete(id);
    releaseSlot(slot);
  }
}

// as many answers at a time as there are slots (the main thread queues the rest anyway)
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
  else if (msg.type === 'answer' || msg.type === 'act') {
    void loaded.then(() => (failure ? send({ type: 'error', id: msg.id, error: failure }) : msg.type === 'act' ? act(msg) : answer(msg)));
  }
});
