import { smoothLatency } from './concurrency-controller';

/**
 * When the next request to one target may leave. Pure: told what happened and when, it answers
 * from that alone (no clock, no I/O); the RequestPacer puts it on a clock.
 *
 * Unknown targets start unpaced. A 429 (or a 503 with Retry-After) means "too fast": every
 * request waits out the Retry-After (the limit is on the client, not on one request). Refusals
 * reveal a limit. The first bounds it from above: the refused request left too close to the one
 * before, and the pace sent at was too fast (the lower of the two: requests that left together
 * say little by their gap); paced at 95 % of it, climbing back to 97 % within a second. Once the
 * target has refused for half a second, what it admitted meanwhile bounds it from below: paced
 * at that, probing up. Once paced, a refusal now and then means the limit is about here (or
 * jitter brought two requests close): the rate steps down 1 %, or back to the last rate that went
 * a whole period unrefused when a probe overshot it; refused again before a quiet period passes,
 * each step goes twice as far. A fifth of the last two seconds' requests refused means well
 * over it: the rate drops to 85 % of what the target admitted and climbs back to it within a
 * second. A refusal of a request sent before the rate last changed only pauses: that change
 * already answered it, and counting it again would cut the pace twice for one burst. Without refusals it probes up every two seconds, 1 % then twice as far each
 * time (up to 8 %), so a limit measured low, or one that rises, is found again (CUBIC's shape:
 * fast back to the last known limit, slow beyond it). `max_requests_per_second`, when set, is a
 * ceiling it never crosses; pacing starts at 97 % of it and climbs from there. Requests are spaced
 * by when they really left (`depart`), not only by the slots handed out ahead.
 */
export type RateObservation =
  | { kind: 'answered'; sentAt: number; latencyMs: number }
  | { kind: 'throttled'; sentAt: number; retryAfterMs: number | null }
  | { kind: 'failed' };

/** how far back admitted requests are counted to measure a limit */
const WINDOW_MS = 2_000;
/** beyond the plateau, the rate grows once per this long without a refusal */
const GROWTH_EVERY_MS = 2_000;
/** the share of the measured limit paced at right after a refusal */
const BACKOFF = 0.95;
/** the share of the last refused rate the pace climbs back to quickly, and then holds */
const PLATEAU = 0.97;
/** growth of the rate per quiet period: fast back to the plateau, slow beyond it */
const RECOVER = 1.05;
const PROBE = 1.01;
const RECOVER_EVERY_MS = 250;
/** a refusal at about the pace already kept: a step down, not a drop */
const STEP_DOWN = 0.99;
/** a fifth of the requests of the last two seconds refused while paced: a drop under what the target admitted */
const DROP = 0.85;
const MIN_RATE = 0.2;

export class RateController {
  /** requests per second; null: unpaced */
  private current: number | null;
  private nextSlot = 0;
  private paused = 0;
  private lastGrowth = 0;
  private readonly admitted: number[] = [];
  private throttleCount = 0;
  private firstSentAt: number | null = null;
  /** when requests left lately, in order (slots handed out: some may lie ahead) */
  private sends: number[] = [];
  /** how far the next quiet period probes, in PROBE steps; back to 1 at each refusal */
  private probeStep = 1;
  /** when requests started being refused before a rate was known */
  private saturatedSince: number | null = null;
  /** refusals in the last two seconds */
  private refusals: number[] = [];
  /** counts refusals: a request that waited for its slot across one waits again */
  private pauseCount = 0;
  /** the rate the pace climbs back to quickly after a refusal: just under the limit, as last measured */
  private plateau: number | null = null;
  /** when the rate was last set or lowered: a refusal of a request sent before says nothing of it */
  private rateSetAt = -Infinity;
  /** how far the next step down goes, in STEP_DOWN steps: twice as far for each refusal in a row */
  private downStep = 1;
  /** the rate last held a whole growth period without a refusal, before the probe beyond it */
  private quiet: number | null = null;
  /** when the last request really left (paced only) */
  private lastDeparture = -Infinity;
  /** how long answers take (smoothed): what was sent within it is not answered yet */
  private latencyMs: number | null = null;

  /** `ceilingRate`: `max_requests_per_second` of the target, or null */
  constructor(private readonly ceilingRate: number | null) {
    // a little under a ceiling, where a target limiting to exactly it would refuse two requests
    // that jitter brought close; it is approached from there
    this.current = ceilingRate === null ? null : ceilingRate * PLATEAU;
  }

  /** requests per second paced at; null while unpaced */
  get rate(): number | null {
    return this.current;
  }

  /** until when every request waits (the last Retry-After) */
  get pausedUntil(): number {
    return this.paused;
  }

  get throttles(): number {
    return this.throttleCount;
  }

  /** refusals so far: a slot handed out before the count changed no longer holds */
  get pauses(): number {
    return this.pauseCount;
  }

  /**
   * When a request whose slot has come may really leave: the pace's spacing after the one that
   * left last. Slots are handed out ahead; a timer that fires late (a busy machine) would let the
   * next on time and bring the two closer than the pace, which a strict limit refuses. `now` when
   * it may go: then it counts as gone, and slots not yet handed out start from it.
   */
  depart(now: number): number {
    if (this.current === null) return now;
    const interval = 1000 / this.current;
    const earliest = Math.max(this.lastDeparture + interval, this.paused);
    if (earliest > now) return earliest;
    this.lastDeparture = now;
    this.nextSlot = Math.max(this.nextSlot, now + interval);
    return now;
  }

  /** when a request wanting to leave at `now` may go; the slot is taken */
  reserve(now: number): number {
    this.firstSentAt ??= now;
    const at = Math.max(now, this.paused, this.nextSlot);
    if (this.current !== null) this.nextSlot = at + 1000 / this.current;
    this.sends.push(at);
    if (this.sends.length > 64) this.sends.shift();
    return at;
  }

  observe(observation: RateObservation, now: number): void {
    switch (observation.kind) {
      case 'answered':
        return this.answered(observation.sentAt, observation.latencyMs, now);
      case 'throttled':
        return this.throttled(observation.sentAt, observation.retryAfterMs, now);
      case 'failed':
      // a time-out or a dropped connection says nothing of the rate
    }
  }

  private answered(sentAt: number, latencyMs: number, now: number): void {
    this.admitted.push(sentAt);
    this.forget(now);
    this.latencyMs = smoothLatency(this.latencyMs, latencyMs);
    if (this.current === null) return;
    // back to just under the last refusal quickly, then probe beyond it slowly, so a limit that
    // was raised is found again
    const plateau = this.plateau;
    if (plateau !== null && this.current < plateau) {
      if (now - this.lastGrowth >= RECOVER_EVERY_MS) {
        this.lastGrowth = now;
        this.current = this.capped(Math.min(plateau, this.current * RECOVER));
      }
    } else if (now - this.lastGrowth >= GROWTH_EVERY_MS) {
      // each quiet period probes twice as far as the one before (1 %, 2 %, 4 %, 8 %): a limit
      // measured low at first is found again within seconds, a right one costs a refusal now and then
      this.lastGrowth = now;
      this.quiet = this.current;
      this.downStep = 1;
      this.current = this.capped(this.current * (1 + (PROBE - 1) * this.probeStep));
      this.probeStep = Math.min(8, this.probeStep * 2);
    }
  }

  private throttled(sentAt: number, retryAfterMs: number | null, now: number): void {
    this.throttleCount++;
    this.pauseCount++;
    this.forget(now);
    this.probeStep = 1;
    if (this.current !== null && sentAt < this.rateSetAt) {
      // sent at the pace before the last decision (or unpaced): the decision already answered it
      return this.pause(retryAfterMs, now);
    }
    this.refusals.push(now);
    while (this.refusals.length && this.refusals[0] < now - WINDOW_MS) this.refusals.shift();
    const recentSends = this.sends.filter((t) => t > now - WINDOW_MS && t <= now).length;
    if (this.current === null) {
      // from the first refusal on, more is asked than admitted: what is admitted is the limit
      this.saturatedSince ??= now;
      // refusals before a pace was set say nothing of the pace
      this.refusals.length = 0;
      // the first refusal: the refused request left `gap` after the one before and that was too
      // close (a limit that spaces requests), and the target admitted only so many lately (a
      // limit that allows bursts, where the gap says little): the lower of the two
      const before = this.sends.filter((t) => t <= sentAt);
      const own = before.lastIndexOf(sentAt); // the refused request itself
      if (own >= 0) before.splice(own, 1);
      const gap = before.length ? sentAt - before[before.length - 1] : 0;
      const admitted = this.admittedRate(now);
      // requests leaving together (or a late timer between two of them) give a gap that says
      // little: the limit is under what was being sent lately all the same
      const spacing = gap >= 5 ? Math.min(1000 / gap, this.sentRate(now, recentSends)) : null;
      if (spacing !== null && (admitted === null || spacing < admitted)) {
        // refused at that spacing: an upper bound, paced a little under
        this.plateau = spacing * PLATEAU;
        this.current = this.capped(Math.max(MIN_RATE, spacing * BACKOFF));
        this.lastGrowth = now;
      } else if (admitted !== null) {
        // admitted while more was asked: what the target lets through, a bound from below (the
        // unpaced retries lose a little); paced at it, probing up from there
        this.current = this.capped(Math.max(MIN_RATE, admitted));
        this.lastGrowth = now;
      }
    } else if (this.refusals.length >= Math.max(3, recentSends / 5)) {
      // refused often while paced: well over the limit, and asking for more than it admits, so
      // what it admitted is the limit, give or take: well under it at once, back to it soon
      this.plateau = Math.min(this.current * PLATEAU, this.admittedRate(now) ?? this.current);
      this.current = this.capped(Math.max(MIN_RATE, this.plateau * DROP));
      this.refusals.length = 0;
      this.downStep = 1;
      this.lastGrowth = now;
    } else {
      // refused now and then at the pace kept: the limit is about here (or jitter brought two
      // requests close): a small step down, or back to the last rate that went a whole period
      // unrefused when a probe overshot it, and no climbing past it for a while. Refused again
      // before a quiet period passed, the step was too small: each one in a row goes twice as far
      // (1 %, 2 %, 4 %, up to 16 %), as probing up does
      const quiet = this.quiet !== null && this.quiet < this.current ? this.quiet : Infinity;
      this.current = this.capped(Math.max(MIN_RATE, Math.min(this.current * (1 - (1 - STEP_DOWN) * this.downStep), quiet)));
      this.downStep = Math.min(16, this.downStep * 2);
      this.plateau = this.current;
      this.lastGrowth = now;
    }
    this.quiet = null;
    this.rateSetAt = now;
    this.pause(retryAfterMs, now);
  }

  /** every request waits out the Retry-After: the limit is on the client, not on one request */
  private pause(retryAfterMs: number | null, now: number): void {
    this.paused = Math.max(this.paused, now + (retryAfterMs ?? (this.current ? 1000 / this.current : 1000)));
    // slots handed out beyond the pause are given up: their holders take new ones (RequestPacer)
    this.nextSlot = this.paused;
  }

  /**
   * Requests per second the target admitted lately, by the time they were sent, counted from
   * when it started refusing (before that, demand set the pace, not the limit). The last
   * latency's worth is left out: what was sent then has not been answered yet, and counting
   * that stretch as empty would under-measure the limit.
   */
  private admittedRate(now: number): number | null {
    if (this.firstSentAt === null) return null;
    const end = now - Math.min(this.latencyMs ?? 0, WINDOW_MS / 2);
    const start = Math.max(now - WINDOW_MS, this.saturatedSince ?? this.firstSentAt);
    if (end - start < 500) return null;
    const count = this.admitted.filter((t) => t >= start && t < end).length;
    return (count * 1000) / (end - start);
  }

  /** requests per second sent lately, over the window or since the first (a second at least) */
  private sentRate(now: number, recentSends: number): number {
    return (recentSends * 1000) / Math.min(WINDOW_MS, Math.max(1000, now - (this.firstSentAt ?? now)));
  }

  private capped(rate: number): number {
    return this.ceilingRate === null ? rate : Math.min(rate, this.ceilingRate);
  }

  private forget(now: number): void {
    while (this.admitted.length && this.admitted[0] < now - 2 * WINDOW_MS) this.admitted.shift();
  }
}
