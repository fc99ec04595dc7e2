/** One event of a text/event-stream body (WHATWG HTML, "Server-sent events"). */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream body into events. Handles CRLF/CR/LF line ends, multi-line
 * `data:`, comments and chunks cut anywhere (even inside a UTF-8 sequence).
 */
export async function* readServerSentEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const lines = function* (final: boolean) {
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // a lone CR at the end of a chunk may be the first half of CRLF
      if (end < 0 || (!final && end === buffer.length - 1 && buffer[end] === '\r')) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      yield line;
    }
    if (final && buffer) {
      yield buffer;
      buffer = '';
    }
  };
  const take = function* (final: boolean): Generator<ServerSentEvent> {
    for (const line of lines(final)) {
      if (line === '') {
        if (data.length) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  };
  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield* take(false);
  }
  buffer += decoder.decode();
  yield* take(true);
  // a stream that ends without the final blank line still delivers its last event
  if (data.length) yield { event: event || 'message', data: data.join('\n') };
}
