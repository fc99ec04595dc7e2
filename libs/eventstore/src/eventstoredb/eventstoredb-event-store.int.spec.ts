import { describeEventStoreContract } from '../event-store.contract';
import { EventStore } from '../event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

// Runs against a real EventStoreDB only: EVENTSTORE_URL, e.g. esdb://admin:changeit@127.0.0.1:2113?tls=false
// (the account must be allowed to read $all). Each test uses its own stream prefix, so a server that
// already holds events is fine.
const url = process.env.EVENTSTORE_URL;

if (url) {
  describeEventStoreContract('eventstoredb', async () => {
    let store: EventStore = new EventStoreDbEventStore(url);
    return {
      store,
      reopen: async () => {
        await store.close();
        store = new EventStoreDbEventStore(url);
        return store;
      },
      cleanup: () => store.close(),
    };
  });
} else {
  describe('EventStore contract: eventstoredb', () => {
    console.log('EventStoreDbEventStore contract skipped: EVENTSTORE_URL is not set (no EventStoreDB server to run against)');
    it.skip('needs EVENTSTORE_URL pointing at an EventStoreDB server', () => undefined);
  });
}
