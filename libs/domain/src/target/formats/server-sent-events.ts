/** One event of a text/event-stream body (WHATWG HTML, "Server-sent events"). */
export interface ServerSentEvent {
  event: string;
  data: string;
}

const LINE_END = /\r\n|\r|\n/g;

/**
 * Splits a text/event-stream body into events. Handles CRLF/CR/LF line ends, multi-line
 * `data:`, comments and chunks cut anywhere (even inside a UTF-8 sequence, or between the CR and
 * LF of one line end). Each chunk is read once: a line that arrives in many small chunks is kept
 * as its pieces and joined when it ends (appending to one string and searching it again from its
 * start for every chunk reads a long line once per chunk).
 */
export async function* readServerSentEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  // the last chunk ended with a CR: an LF starting the next one is the same line end
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  const lines = function* (text: string): Generator<string> {
    let start = afterCr && text.startsWith('\n') ? 1 : 0;
    afterCr = false;
    for (;;) {
      LINE_END.lastIndex = start;
      const end = LINE_END.exec(text);
      if (!end) {
        if (start < text.length) pieces.push(text.slice(start));
        return;
      }
      pieces.push(text.slice(start, end.index));
      const line = pieces.length === 1 ? pieces[0] : pieces.join('');
      pieces = [];
      start = end.index + end[0].length;
      if (end[0] === '\r' && start === text.length) afterCr = true;
      yield line;
    }
  };
  const take = function* (line: string): Generator<ServerSentEvent> {
    if (line === '') {
      if (data.length) yield { event: event || 'message', data: data.join('\n') };
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  for await (const chunk of chunks) {
    for (const line of lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))) yield* take(line);
  }
  for (const line of lines(decoder.decode())) yield* take(line);
  if (pieces.length) {
    const last = pieces.join('');
    pieces = [];
    yield* take(last);
  }
  // a stream that ends without the final blank line still delivers its last event
  if (data.length) yield { event: event || 'message', data: data.join('\n') };
}
