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
 * start for every chunk reads a long line once per chunk). A chunk is read whole before its events
 * are handed on: a target that streams an event every few characters costs the reading of those
 * characters, not a generator's turn for each line.
 */
export async function* readServerSentEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  for await (const events of readServerSentEventsPerChunk(chunks)) for (const e of events) yield e;
}

/** a line end is looked for among a line's first few characters before it is searched for by indexOf */
const SHORT = 4;
const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/**
 * readServerSentEvents a chunk at a time: the events each chunk ends, together (a chunk that ends
 * none gives nothing). A reader that loops over them itself takes one turn of the event loop per
 * chunk, not one per event: a target that streams a token an event pays for its tokens, not for
 * the awaits between them.
 */
export async function* readServerSentEventsPerChunk(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent[]> {
  const decoder = new TextDecoder();
  const framing = new EventStreamFraming();
  for await (const chunk of chunks) {
    framing.read(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (framing.ready.length) yield framing.handOn();
  }
  framing.read(decoder.decode());
  framing.end();
  if (framing.ready.length) yield framing.handOn();
}

/**
 * The lines and events of a stream, read a chunk at a time. What it costs is per byte of the wire,
 * however densely a target frames it: a blank line, or a line of a few characters, is told by
 * looking at them (a call of indexOf costs more than the few characters of a blank line, a comment
 * or a small field), a longer line's end is found by indexOf (each of CR and LF searched for again
 * only once passed: a stream of LFs with a CR at its end is not searched to its end for each line);
 * a line's field is told by its first characters, with no search for its colon and no string made
 * for a line that is not `data` or `event`; an event's data lines are joined once, when it ends.
 */
class EventStreamFraming {
  /** events the chunks read since the last handOn ended */
  ready: ServerSentEvent[] = [];
  /** a line cut by the ends of chunks, in the pieces that came */
  private pieces: string[] = [];
  /** the last chunk ended with a CR: an LF starting the next one is the same line end */
  private afterCr = false;
  private event = '';
  /** the first data line of the event being read (null before it), and all of them once there is a second */
  private data: string | null = null;
  private dataLines: string[] | null = null;

  handOn(): ServerSentEvent[] {
    const events = this.ready;
    this.ready = [];
    return events;
  }

  /** each line `text` ends, taken; what follows its last line end kept as a piece */
  read(text: string): void {
    const length = text.length;
    let start = this.afterCr && text.charCodeAt(0) === LF ? 1 : 0;
    this.afterCr = false;
    // the next CR and LF found by indexOf (-2: not searched yet)
    let cr = -2;
    let lf = -2;
    while (start < length) {
      let end = start;
      const short = Math.min(length, start + SHORT);
      while (end < short) {
        const c = text.charCodeAt(end);
        if (c === LF || c === CR) break;
        end++;
      }
      if (end === short && end < length) {
        if (cr !== -1 && cr < end) cr = text.indexOf('\r', end);
        if (lf !== -1 && lf < end) lf = text.indexOf('\n', end);
        end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
        if (end < 0) end = length;
      }
      if (end === length) break;
      if (this.pieces.length) {
        this.pieces.push(text.slice(start, end));
        const line = this.pieces.join('');
        this.pieces = [];
        this.take(line, 0, line.length);
      } else if (end === start) this.dispatch();
      else this.take(text, start, end);
      start = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (start === length) this.afterCr = true;
        else if (text.charCodeAt(start) === LF) start++;
      }
    }
    if (start < length) this.pieces.push(text.slice(start));
  }

  /** the stream ended: its last line taken, and its last event dispatched even without the final blank line */
  end(): void {
    if (this.pieces.length) {
      const last = this.pieces.join('');
      this.pieces = [];
      this.take(last, 0, last.length);
    }
    this.dispatch();
  }

  private dispatch(): void {
    if (this.data !== null) {
      this.ready.push({ event: this.event || 'message', data: this.dataLines ? this.dataLines.join('\n') : this.data });
      this.data = null;
      this.dataLines = null;
    }
    if (this.event) this.event = '';
  }

  /** the line `text` holds from `start` to `end` (its line end left out) */
  private take(text: string, start: number, end: number): void {
    const length = end - start;
    if (length === 0) return this.dispatch();
    // `data` or `event`, alone or before a colon: any other field, and a comment, is passed over
    let name: number;
    if (length >= 4 && text.charCodeAt(start) === 100 && text.charCodeAt(start + 1) === 97 && text.charCodeAt(start + 2) === 116 && text.charCodeAt(start + 3) === 97) name = 4;
    else if (length >= 5 && text.charCodeAt(start) === 101 && text.charCodeAt(start + 1) === 118 && text.charCodeAt(start + 2) === 101 && text.charCodeAt(start + 3) === 110 && text.charCodeAt(start + 4) === 116) name = 5;
    else return;
    let value = '';
    if (length > name) {
      if (text.charCodeAt(start + name) !== COLON) return;
      const from = start + name + 1;
      value = text.slice(from < end && text.charCodeAt(from) === SPACE ? from + 1 : from, end);
    }
    if (name === 5) this.event = value;
    else if (this.data === null) this.data = value;
    else if (this.dataLines) this.dataLines.push(value);
    else this.dataLines = [this.data, value];
  }
}
