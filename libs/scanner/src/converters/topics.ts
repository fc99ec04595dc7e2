/**
 * What a target says it is for, in its own words: the topics it names when greeted ("I can help
 * with appointments, bills and prescriptions"), even when it refuses ("Let's start with your
 * question about Marrowfield Health: appointments, billing or visiting?"). A crescendo arc that
 * talks about them first is on topic for the target, which is how many assistants, and the
 * guardrails that only open up after a few relevant turns, decide to engage.
 */

/**
 * A greeting is read as far as an answer is judged (JUDGED_CHARS, detectors/readings.ts, which
 * reads converters and so cannot be read from here): a target that greets with megabytes names
 * what it is for at the start or nowhere, and reading its cues on every line would cost more than
 * judging it.
 */
export const GREETING_CHARS = 64 * 1024;
const CUE = /\b(?:help(?:\s+you)?\s+with|assist(?:\s+you)?\s+with|questions?\s+(?:about|on|regarding)|(?:is it|anything|something|everything)\s+about|about|regarding|such as|including|like)\s+([^.?!\n:]{3,160})/gi;
const SEPARATOR = /\s*(?:,|;|\/|—|–|\s-\s|\bor\b|\band\b|\betc\.?)\s*/i;
const LEADING = /^(?:(?:the|your|a|an|our|my|any|some|all|of|with|about|questions?|anything|things?|help|support)\s+)+/i;
const TRAILING = /\s+(?:today|first|now|here|please|too|as well|for you|for me)$/i;
// "assist with this at the moment", "help with that request": the request, not a topic
const PRONOUN = /^(?:this|that|these|those|it|them|what|which|whatever|anything|everything|something|nothing|one|you|me)\b/i;
const EMPTY = new Set(['anything', 'everything', 'something', 'that', 'this', 'it', 'you', 'me', 'us', 'them', 'help', 'questions', 'question', 'things', 'lot', 'a lot', 'quite a lot', 'more']);

export function topicsOf(text: string, max = 6): string[] {
  const topics: string[] = [];
  for (const m of (text.length > GREETING_CHARS ? text.slice(0, GREETING_CHARS) : text).matchAll(CUE)) {
    for (const raw of m[1].split(SEPARATOR)) {
      const topic = raw.trim().replace(LEADING, '').replace(TRAILING, '').replace(/["'“”‘’*_`]+/g, '').trim();
      const words = topic.split(/\s+/);
      if (!/^\p{L}/u.test(topic) || words.length > 4 || topic.length < 3 || EMPTY.has(topic.toLowerCase()) || PRONOUN.test(topic)) continue;
      if (!topics.some((t) => t.toLowerCase() === topic.toLowerCase())) topics.push(topic);
      if (topics.length >= max) return topics;
    }
  }
  return topics;
}
