/**
 * What a custom probe's pattern costs per answer, two ways of keeping it from hanging a scan:
 * re2js (RE2 in pure JS: linear time, no deadline needed) against the native engine run in a
 * worker thread with a hard per-match deadline (the only way to stop a backtracking match is to
 * stop the thread that runs it). Also the catastrophic case, `^(a+)+$` on a 28-character answer.
 *
 *   npm run build && node dist/bench/user-patterns.js
 */
import { Worker } from 'node:worker_threads';
import { compileUserPattern } from '../libs/scanner/src/detectors/user-pattern';

const PATTERNS = ['RF-\\d{4}-X', 'sk-[A-Za-z0-9]{20,}', '\\b(password|passwd|secret)\\s*[:=]\\s*\\S+', '[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}'];
const ANSWER = 'I am sorry, but I cannot share internal details. '.repeat(40) + 'Contact ops@corp.example for the refund rf-2291-x.';
const N = 2_000;

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main() {
  const compiled = PATTERNS.map(compileUserPattern);
  let t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) for (const p of compiled) p.find(ANSWER);
  const re2 = ms(t) / (N * PATTERNS.length);

  const native = PATTERNS.map((p) => new RegExp(p, 'i'));
  t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) for (const p of native) p.exec(ANSWER);
  const inline = ms(t) / (N * PATTERNS.length);

  // native RegExp in a worker, one round trip per match (a deadline would terminate the worker)
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', ({ id, source, text }) => { const m = new RegExp(source, 'i').exec(text); parentPort.postMessage({ id, found: m && m[0] }); });`,
    { eval: true },
  );
  const ask = (id: number, source: string) =>
    new Promise<void>((resolve) => {
      const on = (msg: { id: number }) => msg.id === id && (worker.off('message', on), resolve());
      worker.on('message', on);
      worker.postMessage({ id, source, text: ANSWER });
    });
  t = process.hrtime.bigint();
  let id = 0;
  for (let i = 0; i < N; i++) for (const p of PATTERNS) await ask(id++, p);
  const viaWorker = ms(t) / (N * PATTERNS.length);
  await worker.terminate();

  // the hostile case for the worker: the match runs to the deadline, then the worker is replaced
  const DEADLINE_MS = 250;
  t = process.hrtime.bigint();
  const hostile = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', ({ source, text }) => parentPort.postMessage(new RegExp(source).test(text)));`,
    { eval: true },
  );
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => void hostile.terminate().then(() => resolve()), DEADLINE_MS);
    hostile.once('message', () => (clearTimeout(timer), resolve()));
    hostile.postMessage({ source: '^(a+)+$', text: `${'a'.repeat(27)}!` });
  });
  const respawn = new Worker(`require('node:worker_threads')`, { eval: true });
  await new Promise((resolve) => respawn.once('online', resolve));
  const workerHostile = ms(t);
  await respawn.terminate();
  const perPattern = PATTERNS.map((source, i) => {
    const start = process.hrtime.bigint();
    for (let n = 0; n < 500; n++) compiled[i].find(ANSWER);
    return `${source}: ${((ms(start) / 500) * 1000).toFixed(0)} µs`;
  });

  t = process.hrtime.bigint();
  const hit = compileUserPattern('^(a+)+$').find(`${'a'.repeat(27)}!`);
  const catastrophic = ms(t);

  console.log(`answer of ${ANSWER.length} characters, ${PATTERNS.length} patterns x ${N} answers`);
  console.log(`re2js (linear time, in the event loop):     ${(re2 * 1000).toFixed(1)} µs per match`);
  console.log(`native RegExp, no bound (for reference):    ${(inline * 1000).toFixed(1)} µs per match`);
  console.log(`native RegExp in a worker with a deadline:  ${(viaWorker * 1000).toFixed(1)} µs per match (round trip)`);
  console.log(`re2js per pattern: ${perPattern.join(', ')}`);
  console.log(`re2js on ^(a+)+$ against 27 a's and a '!':  ${catastrophic.toFixed(2)} ms (match: ${hit})`);
  console.log(`worker on the same, ${DEADLINE_MS} ms deadline:    ${workerHostile.toFixed(0)} ms (deadline, terminate, a new worker), on every answer`);
}

void main();
