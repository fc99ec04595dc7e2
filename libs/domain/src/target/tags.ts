/**
 * Tags group targets (a team, an environment, a product): a fleet view filters on them and a
 * schedule can scan every target carrying one. A tag is compared as it is normalised: trimmed and
 * lower-cased, letters, digits and `-_.:/` only, so `Prod` and ` prod ` are one tag.
 */
export const MAX_TAGS = 20;
export const TAG_PATTERN = /^[a-z0-9][a-z0-9\-_.:/]{0,49}$/;

/** the tag as it is stored, or null when it is not one */
export function normalizeTag(tag: string): string | null {
  const t = typeof tag === 'string' ? tag.trim().toLowerCase() : '';
  return TAG_PATTERN.test(t) ? t : null;
}

/** the first thing wrong with a list of tags, or null */
export function tagsProblem(tags: unknown): string | null {
  if (!Array.isArray(tags)) return 'tags must be a list of strings';
  if (tags.length > MAX_TAGS) return `at most ${MAX_TAGS} tags`;
  for (const t of tags) {
    if (normalizeTag(t) === null) return `${JSON.stringify(String(t).slice(0, 60))} is not a tag: 1 to 50 letters, digits or - _ . : /, starting with a letter or digit`;
  }
  return null;
}

/** the tags as stored: normalised, each once, in the order given */
export const normalizeTags = (tags: readonly string[]): string[] => [...new Set(tags.map((t) => normalizeTag(t)).filter((t): t is string => t !== null))];
