/**
 * Custom request headers a target may carry for a gateway (an API management key, a tenant, a
 * Cloudflare Access token). What HTTP itself owns, and what the driver must set, is refused:
 * a header cannot change how the request is framed or which host it goes to.
 */
export const MAX_CUSTOM_HEADERS = 20;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
// field-value (RFC 9110 5.5): visible ASCII, spaces and tabs, obs-text; never CR, LF or NUL
const VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
const RESERVED = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'cookie2']);

/** the first thing wrong with `headers`, or null */
export function customHeadersProblem(headers: unknown): string | null {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return 'headers must be an object of {name: value}';
  const entries = Object.entries(headers as Record<string, unknown>);
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
