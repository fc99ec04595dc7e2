export * from './event-store';
export { openSqlite, type SqliteDatabase } from './sqlite/database';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store';
export { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
export { UpcastingEventStore, type Upcast } from './upcasting';
