/** One event of a text/event-stream body (WHATWG HTML, "Server-sent events"). */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream body into events. Handles CRLF/CR/LF line ends, multi-line
 * `data:`, comments and chunks cut anywhere (even inside a UTF-8 sequence, or between the CR and
 * LF of one line end). Each chunk is read once: a line that arrives in many small chunks is kept
 * as its pieces and joined when it ends (appending to one string and searching it again from its
 * start for every chunk reads a long line once per chunk). A chunk is read whole, its line ends
 * found by indexOf, before its events are handed on: a target that streams an event every few
 * characters costs the reading of those characters, not a generator's turn for each line.
 */
export async function* readServerSentEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  // the last chunk ended with a CR: an LF starting the next one is the same line end
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  /** events the chunk being read ended */
  let ready: ServerSentEvent[] = [];
  const take = (line: string) => {
    if (line === '') {
      if (data.length) ready.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' a comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + (line.charCodeAt(colon + 1) === 32 ? 2 : 1));
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  /** a line that ends with `part`: the pieces kept of it before, if any, joined to it */
  const lineOf = (part: string) => {
    if (pieces.length === 0) return part;
    pieces.push(part);
    const line = pieces.join('');
    pieces = [];
    return line;
  };
  /** each line `text` ends, taken; what follows its last line end kept as a piece */
  const read = (text: string) => {
    let start = afterCr && text.charCodeAt(0) === 10 ? 1 : 0;
    afterCr = false;
    // the next CR and the next LF from `start` on, each searched for again only once passed
    let cr = text.indexOf('\r', start);
    let lf = text.indexOf('\n', start);
    while (cr >= 0 || lf >= 0) {
      const end = lf < 0 || (cr >= 0 && cr < lf) ? cr : lf;
      const line = lineOf(text.slice(start, end));
      start = end + 1;
      if (end === cr) {
        if (start === text.length) afterCr = true;
        else if (text.charCodeAt(start) === 10) start++;
        cr = text.indexOf('\r', start);
      }
      if (lf >= 0 && lf < start) lf = text.indexOf('\n', start);
      take(line);
    }
    if (start < text.length) pieces.push(text.slice(start));
  };
  // handed on one at a time (`yield*` of an array turns each through an async iterator of its own)
  const handOn = () => {
    const events = ready;
    ready = [];
    return events;
  };
  for await (const chunk of chunks) {
    read(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    for (const e of handOn()) yield e;
  }
  read(decoder.decode());
  if (pieces.length) {
    const last = pieces.join('');
    pieces = [];
    take(last);
  }
  // a stream that ends without the final blank line still delivers its last event
  if (data.length) ready.push({ event: event || 'message', data: data.join('\n') });
  for (const e of handOn()) yield e;
}
