import type { Position } from '@gauntlet/eventstore';

/** The CheckpointStore port: where each log consumer keeps the position it has handled up to, by name. */
export interface CheckpointStore {
  load(name: string): Promise<Position | null>;
  save(name: string, position: Position): Promise<void>;
  delete(name: string): Promise<void>;
}
