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

/** Stream names, one place (design.md section 3). */
export const streams = {
  account: (id: string) => `account-${id}`,
  /** keyed by the hash of the normalised email: what makes an email unique */
  emailReservation: (emailHash: string) => `email-${emailHash}`,
  target: (id: string) => `target-${id}`,
  scan: (id: string) => `scan-${id}`,
  webhook: (id: string) => `webhook-${id}`,
  monitor: (targetId: string) => `monitor-${targetId}`,
} as const;
