/**
 * How many conversations to keep in flight with one target. Pure: told what happened, it answers
 * from that alone (no clock, no I/O); the RequestPacer composes it with the RateController.
 *
 * With a rate known, Little's law: rate × latency conversations keep the target busy, plus a
 * margin. Without one, it climbs the target's throughput. A model's answer time grows with the
 * answer's length, so the raw time of one answer says nothing of a queue: what is compared is the
 * time per output unit (a token when the API reports usage, else a character of the answer), as
 * the sum of the times over the sum of the units of the last answers sent with the same number
 * in flight (the slowest and fastest per unit left out). c in flight at u per unit deliver c / u
 * units a second. A conversation more is worth it while that grows by a fair share of what one
 * more would give a target with room (c / (c - 1)); when the unit time grows as much as the
 * conversations did, the target is queueing them: one fewer, and the level above is not tried
 * again for a while. Levels below never measured are measured by stepping down once the level
 * above says no more. Before the first answer it keeps one conversation, the profile's number
 * from then on. A time-out or a dropped connection eases off at once. A refusal is
 * answered by the rate, not here: fewer conversations would only keep the target from its limit.
 */
export type ConcurrencyObservation =
  | {
      kind: 'answered';
      latencyMs: number;
      /** the answer's size: tokens when the API reported usage, else characters (absent: one unit) */
      units?: number;
      /** requests in flight to the target when this one left, itself included (absent: the current limit) */
      inFlight?: number;
    }
  | { kind: 'throttled' }
  | { kind: 'failed' };

export interface ConcurrencyOptions {
  /** conversations at first (the profile's) */
  initialConcurrency: number;
  /** never more than this many at once */
  maxConcurrency: number;
}

/** how long answers take, smoothed over the last few (each new one weighs a fifth) */
export const smoothLatency = (smoothed: number | null, latencyMs: number): number => (smoothed === null ? latencyMs : smoothed * 0.8 + latencyMs * 0.2);

/** answers kept per level */
const WINDOW = 16;
/** answers at a level before it is judged (fewer say little of a model whose answers vary in length) */
const ENOUGH = 8;
/** a level's measure is forgotten after this many answers at any level: the target's load changes */
const MEMORY = 240;
/** how long a level found to queue is not tried again, in answers */
const HOLD = 120;
/** the share of one more conversation's ideal gain that makes it worth keeping */
const FAIR_SHARE = 0.4;

interface Sample {
  latencyMs: number;
  units: number;
  /** when it was seen, counted in answers */
  seq: number;
}

export class ConcurrencyController {
  /** conversations allowed while no rate is known */
  private limit: number;
  private latencyMs: number | null = null;
  /** the last answers per number in flight when they left */
  private readonly levels = new Map<number, Sample[]>();
  private seq = 0;
  /** levels ever measured (a level measured once and forgotten is not stepped down to again) */
  private readonly measured = new Set<number>();
  /** answers at the current limit since it was set */
  private fresh = 0;
  /** no climbing to this level before `until` (answers): it queued when last tried */
  private ceiling: { level: number; until: number } | null = null;

  constructor(private readonly options: ConcurrencyOptions) {
    this.limit = Math.max(1, Math.min(options.initialConcurrency, options.maxConcurrency));
  }

  observe(observation: ConcurrencyObservation): void {
    switch (observation.kind) {
      case 'answered':
        return this.answered(observation.latencyMs, observation.units ?? 1, observation.inFlight ?? this.limit);
      case 'throttled':
        // the rate answers a refusal; the conversations stay, and the count towards a judgement starts over
        this.fresh = 0;
        return;
      case 'failed':
        // a time-out or a dropped connection: ease off
        this.setLimit(Math.max(1, Math.floor(this.limit * 0.75)));
    }
  }

  /**
   * conversations worth having in flight now, given the rate requests are paced at (null: unpaced);
   * one until the target has answered: a model that takes minutes would time out the requests
   * queued behind the first before a single answer had said how slow it is
   */
  concurrency(rate: number | null): number {
    if (this.latencyMs === null) return 1;
    if (rate === null) return this.limit;
    const needed = Math.ceil((rate * this.latencyMs * 1.25) / 1000) + 1;
    return Math.max(1, Math.min(this.options.maxConcurrency, needed));
  }

  /** how long answers take, smoothed (null before the first) */
  get latency(): number | null {
    return this.latencyMs;
  }

  /** units a second the target delivered with `level` in flight, by the last answers (null: not measured) */
  throughput(level: number): number | null {
    const unit = this.unitTime(level);
    return unit === null ? null : (level * 1000) / unit;
  }

  /** milliseconds per output unit with `level` in flight, by the last answers (null: too few) */
  unitTime(level: number): number | null {
    const samples = (this.levels.get(level) ?? []).filter((s) => s.seq > this.seq - MEMORY);
    if (samples.length < ENOUGH) return null;
    // the one slowest and fastest per unit are left out: a stall or a cached answer is not the target's pace
    const kept = [...samples].sort((a, b) => a.latencyMs / Math.max(1, a.units) - b.latencyMs / Math.max(1, b.units)).slice(1, -1);
    const units = kept.reduce((n, s) => n + s.units, 0);
    const ms = kept.reduce((n, s) => n + s.latencyMs, 0);
    return ms / Math.max(1, units);
  }

  private answered(latencyMs: number, units: number, inFlight: number): void {
    this.latencyMs = smoothLatency(this.latencyMs, latencyMs);
    const level = Math.max(1, Math.round(inFlight));
    const samples = this.levels.get(level) ?? [];
    samples.push({ latencyMs: Math.max(0, latencyMs), units: Math.max(0, units), seq: ++this.seq });
    if (samples.length > WINDOW) samples.shift();
    this.levels.set(level, samples);
    if (samples.length >= ENOUGH) this.measured.add(level);
    if (level === this.limit) this.fresh++;
    // judged once enough answers came back with the whole limit in flight
    if (this.fresh >= Math.max(ENOUGH, this.limit)) this.judge();
  }

  private judge(): void {
    const c = this.limit;
    const here = this.throughput(c);
    if (here === null) return;
    const worth = (from: number, to: number) => 1 + (FAIR_SHARE * (to - from)) / from;
    const below = c > 1 ? this.throughput(c - 1) : null;
    if (below !== null && here < below * worth(c - 1, c)) {
      // the unit time grew as much as the conversations: a queue at the target
      this.ceiling = { level: c, until: this.seq + HOLD };
      return this.setLimit(c - 1);
    }
    const held = this.ceiling !== null && this.ceiling.level === c + 1 && this.seq < this.ceiling.until;
    const above = this.throughput(c + 1);
    if (held || c >= this.options.maxConcurrency || (above !== null && above < here * worth(c, c + 1))) {
      // no room above: measure the level below if it never was, else stay
      if (c > 1 && !this.measured.has(c - 1)) return this.setLimit(c - 1);
      this.fresh = 0;
      return;
    }
    this.setLimit(c + 1);
  }

  private setLimit(limit: number): void {
    this.limit = Math.max(1, Math.min(this.options.maxConcurrency, limit));
    this.fresh = 0;
  }
}
