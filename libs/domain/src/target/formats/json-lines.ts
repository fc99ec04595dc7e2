/**
 * Splits a newline-delimited JSON body (application/x-ndjson, Ollama's stream) into values.
 * Chunks may cut a line, or a UTF-8 sequence, anywhere; blank lines are skipped. Each chunk is read
 * once: a line that arrives in many chunks is kept as its pieces and joined when it ends.
 */
export async function* readJsonLines(chunks: AsyncIterable<Uint8Array | string>, onBadLine: (line: string) => never): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  const parse = (line: string) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return onBadLine(line);
    }
  };
  const lines = function* (text: string): Generator<string> {
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, end));
      const line = (pieces.length === 1 ? pieces[0] : pieces.join('')).trim();
      pieces = [];
      start = end + 1;
      if (line) yield line;
    }
    if (start < text.length) pieces.push(text.slice(start));
  };
  for await (const chunk of chunks) for (const line of lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))) yield parse(line);
  for (const line of lines(decoder.decode())) yield parse(line);
  const last = pieces.join('').trim();
  if (last) yield parse(last);
}
