import type { RecordedEvent } from '@gauntlet/eventstore';
import type { Doc } from '../document-store';

/**
 * A projection is pure: given the current document (or null) and an event, the next document.
 * Each document is fed by exactly one stream, so the event's stream revision is a sound
 * revision guard (`_rev`): a redelivered event changes nothing.
 */
export interface Projection<D extends Doc = Doc> {
  /** collection it writes */
  collection: string;
  /** the document an event is about, or null when the projection ignores it */
  documentId(event: RecordedEvent): string | null;
  apply(current: D | null, event: RecordedEvent): D | null;
  /** fields queried by the api (indexes) */
  indexes: string[][];
}
