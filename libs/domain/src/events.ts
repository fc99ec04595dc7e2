/** Every domain event: a past-tense type, its schema version and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly schemaVersion: number;
  readonly data: Data;
}

/** Who and why, carried beside every event in the store (never inside `data`). */
export interface EventMetadata {
  correlationId: string;
  causationId?: string;
  /** `account:<id>`, `apikey:<id>`, `system`, `worker:<id>` ... */
  actor: string;
  occurredAt: string;
  schemaVersion?: number;
}

export function event<Type extends string, Data>(type: Type, data: Data, schemaVersion = 1): DomainEvent<Type, Data> {
  return { type, schemaVersion, data };
}
