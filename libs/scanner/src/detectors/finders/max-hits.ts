/**
 * Hits a finder (or the candidates of an attempt) collects from one answer, at most: a verdict
 * names a few, and a hostile target's multi-megabyte answer of thousands must not make judging it slow.
 */
export const MAX_HITS = 50;
