import type { Position } from '@gauntlet/eventstore';
import type { CheckpointStore } from '@gauntlet/subscriptions';
import type { DocumentStore } from './document-store';

interface CheckpointDoc {
  _id: string;
  position: string;
  updated_at: string;
  [k: string]: unknown;
}

export const CHECKPOINTS = 'checkpoints';

/** Log consumers' checkpoints in the document store (collection `checkpoints`, one document per consumer), next to what they write. */
export class DocumentCheckpoints implements CheckpointStore {
  constructor(private readonly docs: DocumentStore) {}

  async load(name: string): Promise<Position | null> {
    const doc = await this.docs.collection<CheckpointDoc>(CHECKPOINTS).get(name);
    return doc ? BigInt(doc.position) : null;
  }

  async save(name: string, position: Position): Promise<void> {
    await this.docs.collection<CheckpointDoc>(CHECKPOINTS).put({ _id: name, position: String(position), updated_at: new Date().toISOString() });
  }

  delete(name: string): Promise<void> {
    return this.docs.collection(CHECKPOINTS).delete(name);
  }
}
