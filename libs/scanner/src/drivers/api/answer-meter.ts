/**
 * How large one answer was, as pacing needs it: a model's answer time grows with its length, so
 * time is judged per output unit. A token when the API reports usage (OpenAI's completion_tokens,
 * the Responses and Anthropic output_tokens, Ollama's eval_count, Gemini's candidatesTokenCount:
 * all at the end of the body, streamed or not), else a character of the answer as read, else a
 * byte of the body. It watches the body go by (its length and last few kilobytes) and keeps
 * nothing else.
 */
export class AnswerMeter {
  private bytes = 0;
  private tail = '';
  private readonly decoder = new TextDecoder();

  /** the body, passed through unchanged */
  async *through(chunks: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    for await (const chunk of chunks) {
      this.bytes += chunk.length;
      this.tail = (this.tail + this.decoder.decode(chunk, { stream: true })).slice(-TAIL_CHARS);
      yield chunk;
    }
  }

  /** the answer's size in tokens (usage reported) or characters; `answer` is what the format read */
  units(answer: unknown): number {
    const tokens = reportedTokens(this.tail);
    if (tokens !== null) return tokens;
    const text = textOf(answer);
    return text === null ? this.bytes : text.length;
  }
}

const TAIL_CHARS = 4096;
const USAGE = /"(?:completion_tokens|output_tokens|eval_count|candidatesTokenCount)"\s*:\s*(\d+)/g;

/** the last output-token count the body reports (a stream's last event carries the total) */
export function reportedTokens(text: string): number | null {
  let last: number | null = null;
  for (const m of text.matchAll(USAGE)) last = Number(m[1]);
  return last;
}

function textOf(answer: unknown): string | null {
  if (typeof answer === 'string') return answer;
  if (answer && typeof answer === 'object') {
    const { text, content } = answer as { text?: unknown; content?: unknown };
    if (typeof text === 'string') return text;
    if (typeof content === 'string') return content;
  }
  return null;
}
