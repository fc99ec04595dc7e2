/**
 * Splits a newline-delimited JSON body (application/x-ndjson, Ollama's stream) into values.
 * Chunks may cut a line, or a UTF-8 sequence, anywhere; blank lines are skipped.
 */
export async function* readJsonLines(chunks: AsyncIterable<Uint8Array | string>, onBadLine: (line: string) => never): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffer = '';
  const parse = (line: string) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return onBadLine(line);
    }
  };
  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) yield parse(line);
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) yield parse(buffer.trim());
}
