import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, Position, SqliteEventStore } from '@gauntlet/eventstore';
import { Bus, EmbeddedBus, silentBusLogger } from '@gauntlet/messaging';
import { CheckpointStore } from './checkpoint-store';
import { LogRelay } from './log-relay';

/** checkpoints in memory: what the relay needs of the port, nothing more */
class MemoryCheckpoints implements CheckpointStore {
  readonly saved = new Map<string, Position>();
  async load(name: string) {
    return this.saved.get(name) ?? null;
  }
  async save(name: string, position: Position) {
    this.saved.set(name, position);
  }
  async delete(name: string) {
    this.saved.delete(name);
  }
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
};

describe('the log relay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-relay-'));
  const db = openSqlite(join(dir, 'gauntlet.db'));
  const store = new SqliteEventStore(db);
  const bus: Bus = new EmbeddedBus(db, { logger: silentBusLogger, pollIntervalMs: 20 });
  const checkpoints = new MemoryCheckpoints();
  const received: string[] = [];
  const relayOf = () =>
    new LogRelay({
      store, checkpoints, bus, name: 'test-relay',
      route: { topic: 'test.jobs', filter: { eventTypes: ['JobRequested'] }, toMessages: (e) => (e.data.skip ? [] : [{ key: e.streamId, value: String(e.data.n) }]) },
    });
  const metadata = { actor: 'test', correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
  const request = (n: number, skip = false) => store.append(`job-${n}`, [{ type: 'JobRequested', data: { n, skip }, metadata }], { expectedRevision: 'no_stream' });

  beforeAll(async () => {
    await bus.ensureTopics(['test.jobs']);
    await bus.consume(['test.jobs'], { group: 'test' }, async (m) => void received.push(m.value));
  });
  afterAll(async () => {
    await bus.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes what the route maps each event to, in order, and saves its checkpoint after each', async () => {
    const relay = relayOf();
    await relay.start();
    await request(1);
    await request(2, true);
    await store.append('other-1', [{ type: 'SomethingElse', data: {}, metadata }], { expectedRevision: 'no_stream' });
    const last = await request(3);
    await until(() => received.length >= 2);
    await until(() => checkpoints.saved.get('test-relay') === last.position);
    expect(received).toEqual(['1', '3']);
    expect(await relay.position()).toBe(last.position);
    await relay.stop();
  });

  it('a relay started again goes on from its checkpoint: nothing published twice, nothing skipped', async () => {
    await request(4);
    const relay = relayOf();
    await relay.start();
    await until(() => received.length >= 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toEqual(['1', '3', '4']);
    await relay.stop();
  });
});
