/** What tests of an EventStore adapter use: the contract every adapter passes (the EventStoreDB stand-in is testing/eventstoredb-stand-in.ts). Not for production code. */
export { describeEventStoreContract, type EventStoreUnderTest } from './event-store.contract';
