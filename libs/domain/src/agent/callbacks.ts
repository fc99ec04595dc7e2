/**
 * A request that reached Gauntlet's callback listener at an address one attempt planted
 * (`/oob/<token>`, or a host name `<token labels>.<CALLBACK_DOMAIN>` looked up over DNS or asked
 * for over HTTP): the proof that the target (or something it drove) fetched an attacker's
 * address, and what it carried. Recorded on the scan's stream as `OutOfBandHit`, also after the
 * scan ended. Bounded: at most 4 KiB of the request is kept.
 */
export interface OutOfBandHit {
  scan_id: string;
  /** the attempt that planted the address */
  attempt_id: string;
  /** the token as it came: base64url in a path, base32 labels in a host name */
  token: string;
  /**
   * the planted address in one spelling (its token as a path spells it), however this hit spelled
   * it: a path, a host name and a lookup of one address share its bound (MAX_HITS_PER_TOKEN); absent
   * on hits recorded before it was kept, whose token stands for it
   */
  address?: string;
  /** the HTTP method, or `DNS` for a lookup */
  method: string;
  /** the path after /oob/<token>, or the whole path of a request whose host carried the token ("" when none, and for a lookup) */
  path: string;
  /** the host name that carried the token (lower case): the name looked up, or the request's Host */
  host?: string;
  /** a lookup's record type (A, AAAA, MX...) */
  record_type?: string;
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

/** At most this much of one callback request is kept (path, query, headers and body together), counted as stored (JSON-escaped UTF-8). */
export const MAX_HIT_BYTES = 4096;

/** CALLBACK_DOMAIN's longest: a token of two UUIDs (85 characters as labels) still fits under it in DNS's 253 */
export const MAX_CALLBACK_DOMAIN = 100;

/** What is wrong with a CALLBACK_DOMAIN, in words after its name; null when it is a domain tokens can stand under. */
export function callbackDomainProblem(domain: string): string | null {
  const name = domain.trim().toLowerCase();
  if (name.length > MAX_CALLBACK_DOMAIN) return `must be at most ${MAX_CALLBACK_DOMAIN} characters (a token's labels go in front of it)`;
  const labels = name.split('.');
  if (labels.length < 2 || labels.some((l) => !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l)) || /^\d+$/.test(labels[labels.length - 1])) {
    return 'must be a domain name such as oob.example.com (no scheme, port or path), whose names reach the listener';
  }
  return null;
}
