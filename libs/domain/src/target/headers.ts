/**
 * Custom request headers a target may carry for a gateway (an API management key, a tenant, a
 * Cloudflare Access token). What HTTP itself owns, and what the driver must set, is refused:
 * a header cannot change how the request is framed or which host it goes to.
 */
export const MAX_CUSTOM_HEADERS = 20;
/** a header name: RFC 9110 token (5.6.2), at most 100 characters */
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
const TOKEN = new RegExp(HEADER_NAME_PATTERN);
// field-value (RFC 9110 5.5): visible ASCII, spaces and tabs, obs-text; never CR, LF or NUL
const VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
const RESERVED = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'cookie2']);

/** custom headers as [name, value] pairs, the way they travel until they are stored */
export type HeaderPairs = Array<[string, string]>;

/**
 * The own entries of a JSON object as [name, value] pairs; anything else as it is (for the
 * check to refuse). As pairs, a header named `constructor` or `__defineGetter__` is a header
 * like any other: as a key of an ordinary object it collides with what every object inherits,
 * and object mappers skip such keys.
 */
export function headerPairs(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : value;
}

/** the headers as a record with no inherited keys (no prototype): only what the user gave is in it */
export function customHeaders(headers: HeaderPairs | Record<string, string>): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers)) record[name] = value;
  return record;
}

/**
 * The headers a request goes out with: the format's own (content type, its key header), where a
 * custom header of the same name in any case replaces the built-in one rather than going beside
 * it (a gateway reading the first Authorization would otherwise see ours).
 */
export function withCustomHeaders(builtIn: Record<string, string>, custom: Record<string, string> | null | undefined): Record<string, string> {
  const replaced = new Set(Object.keys(custom ?? {}).map((n) => n.toLowerCase()));
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(builtIn)) if (!replaced.has(name.toLowerCase())) out[name] = value;
  for (const [name, value] of Object.entries(custom ?? {})) out[name] = value;
  return out;
}

/** the first thing wrong with `headers` (an object of {name: value}, or its pairs), or null */
export function customHeadersProblem(headers: unknown): string | null {
  const given = headerPairs(headers);
  const pairs = Array.isArray(given) && given.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string');
  if (!pairs) return 'headers must be an object of {name: value}';
  const entries = given as Array<[string, unknown]>;
  if (entries.length > MAX_CUSTOM_HEADERS) return `at most ${MAX_CUSTOM_HEADERS} headers`;
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (!TOKEN.test(name)) return `"${name.slice(0, 40)}" is not a header name`;
    const lower = name.toLowerCase();
    if (RESERVED.has(lower) || lower.startsWith('proxy-')) return `${name} is set by HTTP itself and cannot be overridden`;
    if (seen.has(lower)) return `${name} is given twice`;
    seen.add(lower);
    if (typeof value !== 'string' || !VALUE.test(value)) return `the value of ${name} must be text of at most 4096 characters, without line breaks`;
  }
  return null;
}
