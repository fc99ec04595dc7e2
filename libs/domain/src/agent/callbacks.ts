/**
 * A request that reached Gauntlet's callback listener at an address one attempt planted
 * (`/oob/<token>`): the proof that the target (or something it drove) fetched an attacker's
 * address, and what it carried. Recorded on the scan's stream as `OutOfBandHit`, also after the
 * scan ended. Bounded: at most 4 KiB of the request is kept.
 */
export interface OutOfBandHit {
  scan_id: string;
  /** the attempt that planted the address */
  attempt_id: string;
  token: string;
  method: string;
  /** the path after /oob/<token> ("" when none) */
  path: string;
  /** the query string without its "?", absent when none */
  query?: string;
  /** the address the request came from */
  source: string;
  at: string;
  /** a few request headers that say who asked (user-agent, referer), bounded */
  headers?: Record<string, string>;
  /** the start of the request body, when it had one (bounded with the rest to 4 KiB) */
  body?: string;
}

/** At most this much of one callback request is kept (path, query, headers and body together). */
export const MAX_HIT_BYTES = 4096;
