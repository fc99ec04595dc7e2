/**
 * Splits a newline-delimited JSON body (application/x-ndjson, Ollama's stream) into values.
 * Chunks may cut a line, or a UTF-8 sequence, anywhere; blank lines are skipped.
 */
export async function* readJsonLines(chunks: AsyncIterable<Uint8Array | string>, onBadLine: (line: string) => never): AsyncGenerator<unknown> {
  for await (const lines of readJsonLinesPerChunk(chunks)) for (const line of lines) yield jsonLine(line, onBadLine);
}

/** one line as JSON (JSON.parse is the judge), or what onBadLine makes of it */
export function jsonLine(line: string, onBadLine: (line: string) => never): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return onBadLine(line);
  }
}

/** a line end is looked for among a line's first few characters before it is searched for by indexOf */
const SHORT = 4;
const LF = 10;

/** whether trim() would leave `line` as it is: it begins and ends with printable ASCII (trim takes only white space and line ends) */
const untrimmed = (line: string) => {
  const first = line.charCodeAt(0);
  const last = line.charCodeAt(line.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127;
};

/**
 * The lines (trimmed, blank ones left out) of a newline-delimited JSON body, a chunk at a time:
 * those each chunk ends, together, unparsed, so that a reader parses them in order and may stop at
 * one (a chunk that ends none gives nothing). A reader that loops over them takes one turn of the
 * event loop per chunk, not one per line; a line of a few characters is told by looking at them, a
 * longer one's end found by indexOf; a blank line costs no string; and a line is trimmed only when
 * it begins or ends with what trim could take. A target that writes a line every few characters
 * pays for its characters. Each chunk is read once: a line that arrives in many chunks is kept as
 * its pieces and joined when it ends.
 */
export async function* readJsonLinesPerChunk(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  const keep = (out: string[], line: string) => {
    const kept = untrimmed(line) ? line : line.trim();
    if (kept) out.push(kept);
  };
  const lines = (text: string): string[] => {
    const out: string[] = [];
    const length = text.length;
    let start = 0;
    while (start < length) {
      let end = start;
      const short = Math.min(length, start + SHORT);
      while (end < short && text.charCodeAt(end) !== LF) end++;
      if (end === short && end < length) {
        end = text.indexOf('\n', end);
        if (end < 0) break;
      }
      if (end === length) break;
      if (pieces.length) {
        pieces.push(text.slice(start, end));
        const line = pieces.join('');
        pieces = [];
        keep(out, line);
      } else if (end > start) keep(out, text.slice(start, end));
      start = end + 1;
    }
    if (start < length) pieces.push(text.slice(start));
    return out;
  };
  for await (const chunk of chunks) {
    const ended = lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (ended.length) yield ended;
  }
  const ended = lines(decoder.decode());
  if (pieces.length) keep(ended, pieces.join(''));
  if (ended.length) yield ended;
}
