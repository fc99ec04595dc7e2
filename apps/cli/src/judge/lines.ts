import { StringDecoder } from 'node:string_decoder';

/** One line of a JSON Lines input, numbered from 1: its text, or that it was longer than the bound (its text dropped). */
export type InputLine = { n: number; text: string } | { n: number; tooLong: true };

/**
 * The lines of a stream, each held at most `maxChars` long: a longer one is read past, not kept,
 * and said as too long, so a file of one endless line costs no more memory than the bound. UTF-8
 * is decoded across chunk boundaries; `\r\n` ends a line as `\n` does.
 */
export async function* boundedLines(input: AsyncIterable<string | Uint8Array>, maxChars: number): AsyncGenerator<InputLine> {
  const decoder = new StringDecoder('utf8');
  let n = 1;
  let current = '';
  let over = false;
  const end = (): InputLine => {
    const line: InputLine = over ? { n, tooLong: true } : { n, text: current.endsWith('\r') ? current.slice(0, -1) : current };
    n++;
    current = '';
    over = false;
    return line;
  };
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk));
    let from = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
      if (!over) current += text.slice(from, at);
      if (current.length > maxChars) over = true;
      yield end();
      from = at + 1;
    }
    if (!over) current += text.slice(from);
    if (current.length > maxChars) {
      over = true;
      current = '';
    }
  }
  if (!over) current += decoder.end();
  if (over || current.length > 0) yield end();
}
