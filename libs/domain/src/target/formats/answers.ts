import { TargetProtocolError } from '../target-errors';
import { TargetAnswer } from './api-format';

/** reads a whole answer as text */
export async function answerText(answer: TargetAnswer): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of answer.chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

/** reads a whole answer as JSON, or says the target did not answer JSON (a web page, most often) */
export async function answerJson(answer: TargetAnswer): Promise<unknown> {
  const text = await answerText(answer);
  try {
    return JSON.parse(text);
  } catch {
    const html = answer.contentType.includes('html') || /^\s*<(!doctype|html|head|body)/i.test(text);
    throw new TargetProtocolError(`the answer is not JSON (content-type ${answer.contentType || 'none'})`, {
      kind: 'unreadable', contentType: answer.contentType, looksLike: html ? 'html' : null,
    });
  }
}

export function isEventStream(answer: TargetAnswer): boolean {
  return answer.contentType.startsWith('text/event-stream');
}

/**
 * A JSON answer a format cannot read. The registry (formats/index.ts) turns it into an
 * unreadable TargetProtocolError naming the format the JSON looks like instead, so a check can
 * name the api_format to choose.
 */
export class UnrecognisedAnswer extends Error {
  constructor(message: string, readonly json: unknown) {
    super(message);
    this.name = 'UnrecognisedAnswer';
  }
}

/** one streamed event or line as JSON, or a TargetProtocolError saying what was not */
export function streamedJson(data: string, what = 'a streamed event'): any {
  try {
    return JSON.parse(data);
  } catch {
    throw new TargetProtocolError(`${what} is not JSON`);
  }
}
