/**
 * Bearer tokens whose signature and claims passport-jwt has already verified, remembered until
 * they expire (and for five minutes at most), so a client polling a scan's status does not pay
 * for the signature check on every request. Keyed by the whole token: any other signature is
 * another key and goes through verification. Bounded: when full, the oldest entry goes first.
 * It remembers only who the token names; the account itself is still read on every request.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { subject: string; until: number }>();

  constructor(
    private readonly options: { maxEntries?: number; maxAgeMs?: number; now?: () => number } = {},
  ) {}

  /** the verified token's subject, or undefined when it was never verified here or has expired */
  subjectOf(token: string): string | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.subject;
  }

  /** `expiresAt` is the token's exp claim (seconds since the epoch), when it has one */
  remember(token: string, subject: string, expiresAt?: number): void {
    const now = this.now();
    const until = Math.min(now + (this.options.maxAgeMs ?? 5 * 60_000), expiresAt === undefined ? Infinity : expiresAt * 1000);
    if (until <= now) return;
    const max = this.options.maxEntries ?? 10_000;
    if (!this.entries.has(token) && this.entries.size >= max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { subject, until });
  }

  get size(): number {
    return this.entries.size;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
