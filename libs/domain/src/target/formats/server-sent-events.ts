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
  for await (const events of readServerSentEventsPerChunk(chunks)) for (const e of events) yield e;
}

/**
 * readServerSentEvents a chunk at a time: the events each chunk ends, together (a chunk that ends
 * none gives nothing). A reader that loops over them itself takes one turn of the event loop per
 * chunk, not one per event: a target that streams a token an event pays for its tokens, not for
 * the awaits between them.
 */
export async function* readServerSentEventsPerChunk(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent[]> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  // the last chunk ended with a CR: an LF starting the next one is the same line end
  let afterCr = false;
  let event = '';
  /** the data lines of the event being read, joined by LF; null before its first */
  let data: string | null = null;
  /** events the chunk being read ended */
  let ready: ServerSentEvent[] = [];
  const handOn = () => {
    const events = ready;
    ready = [];
    return events;
  };
  const dispatch = () => {
    if (data !== null) ready.push({ event: event || 'message', data });
    event = '';
    data = null;
  };
  /**
   * the line `text` holds from `start` to `end`, `colon` the first ':' at or after `start` (-1:
   * none; at or past `end`: none in the line). Only its value is copied: a stream of small events
   * costs a string per event, not one for each line, field and value.
   */
  const take = (text: string, start: number, end: number, colon: number) => {
    if (start === end) return dispatch();
    if (colon === start) return; // a comment
    const name = colon < 0 || colon >= end ? end - start : colon - start;
    const isData = name === 4 && text.startsWith('data', start);
    if (!isData && !(name === 5 && text.startsWith('event', start))) return;
    const value = name === end - start ? '' : text.slice(colon + (colon + 1 < end && text.charCodeAt(colon + 1) === 32 ? 2 : 1), end);
    if (!isData) event = value;
    else data = data === null ? value : `${data}\n${value}`;
  };
  /** a line of pieces kept from earlier chunks, joined */
  const takeJoined = (line: string) => take(line, 0, line.length, line.indexOf(':'));
  /** each line `text` ends, taken; what follows its last line end kept as a piece */
  const read = (text: string) => {
    let start = afterCr && text.charCodeAt(0) === 10 ? 1 : 0;
    afterCr = false;
    // the next CR, LF and colon from `start` on, each searched for again only once passed
    let cr = text.indexOf('\r', start);
    let lf = text.indexOf('\n', start);
    let colon = text.indexOf(':', start);
    while (cr >= 0 || lf >= 0) {
      const end = lf < 0 || (cr >= 0 && cr < lf) ? cr : lf;
      if (pieces.length) {
        pieces.push(text.slice(start, end));
        const line = pieces.join('');
        pieces = [];
        takeJoined(line);
      } else {
        if (colon >= 0 && colon < start) colon = text.indexOf(':', start);
        take(text, start, end, colon);
      }
      start = end + 1;
      if (end === cr) {
        if (start === text.length) afterCr = true;
        else if (text.charCodeAt(start) === 10) start++;
        cr = text.indexOf('\r', start);
      }
      if (lf >= 0 && lf < start) lf = text.indexOf('\n', start);
    }
    if (start < text.length) pieces.push(text.slice(start));
  };
  for await (const chunk of chunks) {
    read(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (ready.length) yield handOn();
  }
  read(decoder.decode());
  if (pieces.length) {
    const last = pieces.join('');
    pieces = [];
    takeJoined(last);
  }
  // a stream that ends without the final blank line still delivers its last event
  dispatch();
  if (ready.length) yield handOn();
}
