import { openSqlite } from '@gauntlet/eventstore';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBusContract } from '@gauntlet/messaging/testing';
import { silentBusLogger } from '../logger';
import { EmbeddedBus, EmbeddedBusOptions } from './embedded-bus';

// the deployment's own way to open its one SQLite file: the bus shares it with the event store
const open = openSqlite;

const options: EmbeddedBusOptions = { logger: silentBusLogger, retry: { initialMs: 50, maxMs: 1000 }, pollIntervalMs: 200 };

describeBusContract('embedded (SQLite file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-bus-'));
  const file = join(dir, 'gauntlet.db');
  let db = open(file);
  let bus = new EmbeddedBus(db, options);
  return {
    bus,
    reopen: async () => {
      await bus.close();
      db.close();
      db = open(file);
      bus = new EmbeddedBus(db, options);
      return bus;
    },
    cleanup: async () => {
      await bus.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
