/**
 * How long one answer may take, by what the target has shown: the base deadline, or the time its
 * answers have taken lately times the conversations in flight plus three, when that is longer
 * (at most ten times the base). A target that answers one at a time makes the last of `n` queued
 * requests wait about `n` answers, so a deadline fixed at the base would time out every answer of
 * a model slower than it, and the requests queued behind the first ones with it; one that follows
 * the target still ends a hung request, at a few times the usual wait.
 */
export function answerDeadline(baseMs: number, answerMs: number | null, inFlight: number): number {
  if (answerMs === null || !Number.isFinite(answerMs)) return baseMs;
  return Math.min(10 * baseMs, Math.max(baseMs, Math.ceil(answerMs * (Math.max(1, inFlight) + 3))));
}
