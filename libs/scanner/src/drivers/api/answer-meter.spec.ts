import { AnswerMeter, reportedTokens } from './answer-meter';

async function drain(meter: AnswerMeter, parts: string[]): Promise<void> {
  async function* body() {
    for (const p of parts) yield Buffer.from(p);
  }
  for await (const _ of meter.through(body())) void _;
}

describe('AnswerMeter', () => {
  it('counts tokens where the API reports usage, the last count of a stream being the total', async () => {
    const meter = new AnswerMeter();
    await drain(meter, ['{"choices":[{"message":{"content":"hello there"}}],', '"usage":{"prompt_tokens":40,"completion_tokens":7}}']);
    expect(meter.units('hello there')).toBe(7);
    expect(reportedTokens('data: {"usage":{"output_tokens":3}}\n\ndata: {"usage":{"output_tokens":12}}')).toBe(12);
    expect(reportedTokens('{"done":true,"eval_count":55}')).toBe(55);
    expect(reportedTokens('{"usageMetadata":{"candidatesTokenCount":9}}')).toBe(9);
  });

  it("counts the answer's characters without usage, and the body's bytes when the answer is not text", async () => {
    const meter = new AnswerMeter();
    await drain(meter, ['{"choices":[{"message":{"content":"hello there"}}]}']);
    expect(meter.units('hello there')).toBe(11);
    expect(meter.units({ text: 'abc' })).toBe(3);
    expect(meter.units(42)).toBe(Buffer.byteLength('{"choices":[{"message":{"content":"hello there"}}]}'));
  });
});
