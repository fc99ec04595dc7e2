/** What time it is, as the write path records it: a port so a handler never reads the system clock itself. */
export abstract class Clock {
  abstract now(): Date;

  /** now as the events record it (ISO 8601, UTC) */
  iso(): string {
    return this.now().toISOString();
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
