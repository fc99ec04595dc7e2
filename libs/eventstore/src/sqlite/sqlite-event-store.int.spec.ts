import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { transformFileSync } from '@swc/core';
import { describeEventStoreContract } from '@gauntlet/eventstore/testing';
import { EventStore } from '../event-store';
import { openSqlite, SqliteDatabase } from './database';
import { SqliteEventStore } from './sqlite-event-store';

describeEventStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-es-'));
  const file = join(dir, 'gauntlet.db');
  let db: SqliteDatabase = openSqlite(file);
  let store: EventStore = new SqliteEventStore(db, { pollIntervalMs: 20 });
  return {
    store,
    reopen: async () => {
      await store.close();
      db.close();
      db = openSqlite(file);
      store = new SqliteEventStore(db, { pollIntervalMs: 20 });
      return store;
    },
    cleanup: async () => {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteEventStore on a file shared with other processes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gauntlet-es-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers live to a subscriber events that another connection appended (found by the poll)', async () => {
    // the same file under a second name: the in-process wake-up is keyed by name, so only the poll can see the append
    symlinkSync(dir, join(dir, 'alias'));
    const readerDb = openSqlite(join(dir, 'shared.db'));
    const writerDb = openSqlite(join(dir, 'alias', 'shared.db'));
    const reader = new SqliteEventStore(readerDb, { pollIntervalMs: 20 });
    const writer = new SqliteEventStore(writerDb);
    try {
      const seen: string[] = [];
      const subscription = reader.subscribeToAll({}, async (e) => void seen.push(e.type));
      const waitFor = async (count: number) => {
        const deadline = Date.now() + 3000;
        while (seen.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      };
      await reader.append('scan-1', [{ type: 'ScanRequested', data: {}, metadata: {} }], { expectedRevision: 'no_stream' });
      await waitFor(1);
      // the subscription has caught up and sleeps: only the poll can find this one
      await writer.append('scan-1', [{ type: 'ScanStarted', data: {}, metadata: {} }], { expectedRevision: 0 });
      await waitFor(2);
      expect(seen).toEqual(['ScanRequested', 'ScanStarted']);
      await subscription.stop();
    } finally {
      await reader.close();
      await writer.close();
      readerDb.close();
      writerDb.close();
    }
  });

  it('keeps every acknowledged append when the writing process is killed with SIGKILL', async () => {
    const file = join(dir, 'crash.db');
    const script = compileCrashWriter(join(dir, 'build'));
    const acknowledged: { stream: string; revision: number; position: bigint }[] = [];
    const child = spawn(process.execPath, [script, file], {
      env: { ...process.env, NODE_PATH: resolve(__dirname, '../../../../node_modules') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    try {
      await new Promise<void>((resolvePromise, reject) => {
        let buffer = '';
        const timer = setTimeout(() => reject(new Error(`writer too slow; stderr: ${stderr}`)), 8000);
        child.stdout!.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const lines = buffer.split('\n');
          buffer = lines.pop()!;
          for (const line of lines) {
            const [stream, revision, position] = line.split(' ');
            acknowledged.push({ stream, revision: Number(revision), position: BigInt(position) });
          }
          // kill it mid-flight, while it is still appending as fast as it can
          if (acknowledged.length >= 2000 && child.exitCode === null && !child.killed) {
            clearTimeout(timer);
            child.kill('SIGKILL');
            resolvePromise();
          }
        });
        child.on('exit', (code) => {
          clearTimeout(timer);
          if (!child.killed) reject(new Error(`writer exited by itself (${code}); stderr: ${stderr}`));
        });
      });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await exited(child);
    expect(child.signalCode).toBe('SIGKILL');

    const db = openSqlite(file);
    const store = new SqliteEventStore(db);
    try {
      const all = await store.readAll();
      const byPosition = new Map(all.map((e) => [e.position, e]));
      for (const ack of acknowledged) {
        expect(byPosition.get(ack.position)).toMatchObject({ streamId: ack.stream, revision: ack.revision });
      }
      // nothing half-written: every stream is whole from revision 0
      const streams = new Map<string, number[]>();
      for (const e of all) streams.set(e.streamId, [...(streams.get(e.streamId) ?? []), e.revision]);
      for (const revisions of streams.values()) expect(revisions).toEqual(revisions.map((_, i) => i));
      expect(all.length).toBeGreaterThanOrEqual(acknowledged.length);
      const next = await store.append('after-crash', [{ type: 'Restarted', data: {}, metadata: {} }], { expectedRevision: 'no_stream' });
      expect(next.position).toBeGreaterThan(all[all.length - 1].position);
    } finally {
      await store.close();
      db.close();
    }
  }, 20_000);
});

/**
 * The child runs the real adapter, compiled from these sources with swc (jest compiles only
 * what it loads itself), and prints each append only after `append` resolved: an acknowledgement.
 */
function compileCrashWriter(out: string): string {
  const src = resolve(__dirname, '..');
  for (const rel of ['event-store.ts', 'sqlite/database.ts', 'sqlite/sqlite-event-store.ts']) {
    const { code } = transformFileSync(join(src, rel), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    const dest = join(out, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, code);
  }
  const script = join(out, 'crash-writer.js');
  writeFileSync(
    script,
    `const { openSqlite } = require('./sqlite/database');
const { SqliteEventStore } = require('./sqlite/sqlite-event-store');
const store = new SqliteEventStore(openSqlite(process.argv[2]));
const revisions = new Map();
(async () => {
  for (let i = 0; i < 1e7; i++) {
    const stream = 'scan-' + (i % 17);
    const expected = revisions.has(stream) ? revisions.get(stream) : 'no_stream';
    const batch = Array.from({ length: 1 + (i % 3) }, (_, n) => ({ type: 'ProbeAttempted', data: { i, n }, metadata: {} }));
    const result = await store.append(stream, batch, { expectedRevision: expected });
    revisions.set(stream, result.nextRevision);
    process.stdout.write(stream + ' ' + result.nextRevision + ' ' + result.position + '\\n');
  }
})().catch((e) => { console.error(e); process.exit(1); });
`,
  );
  return script;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => child.once('exit', () => resolvePromise()));
}
