import { declaredCharset, jsonBodyText, MAX_JSON_DEPTH, tooDeepAt } from './json-body';
import { ProblemException } from './problem';

const nest = (levels: number, open = '[', close = ']') => open.repeat(levels) + close.repeat(levels);

function refusal(body: Buffer | string, contentType = 'application/json'): ProblemException {
  try {
    jsonBodyText(typeof body === 'string' ? Buffer.from(body) : body, contentType);
  } catch (err) {
    return err as ProblemException;
  }
  throw new Error('accepted');
}

describe('request bodies are bounded before they are parsed', () => {
  it('lets a body nest exactly the limit, and names the field where it goes one deeper', () => {
    expect(tooDeepAt(nest(MAX_JSON_DEPTH))).toBeNull();
    expect(tooDeepAt(nest(MAX_JSON_DEPTH + 1))).toBe(Array(MAX_JSON_DEPTH).fill(0).join('.'));
    const agent = `{"events":[{"kind":"input"},{"tool":{"name":"x","arguments":{"a":${nest(40, '[', ']')}}}}]}`;
    expect(tooDeepAt(agent)).toBe(['events', 1, 'tool', 'arguments', 'a', ...Array(MAX_JSON_DEPTH - 5).fill(0)].join('.'));
  });

  it('counts only brackets outside strings, escaped quotes included', () => {
    expect(tooDeepAt(JSON.stringify({ name: '['.repeat(1000) + '"\\"{{{' }))).toBeNull();
    expect(tooDeepAt(`{"a\\"b":${nest(MAX_JSON_DEPTH)}}`)).toBe(`a"b.${Array(MAX_JSON_DEPTH - 1).fill(0).join('.')}`);
  });

  it('follows keys and array positions to the deep field', () => {
    expect(tooDeepAt('{"x":[1,2,{"y":[[[]]]}]}', 4)).toBe('x.2.y.0');
    expect(tooDeepAt('{"x":{},"y":{"z":{}}}', 2)).toBe('y.z');
  });

  it('scans a hundred thousand levels without recursion', () => {
    expect(tooDeepAt(nest(100_000, '{"a":', '}'))).toBe(Array(MAX_JSON_DEPTH).fill('a').join('.'));
  });

  it('refuses a too-deep body with a 400 naming the field', () => {
    const err = refusal(`{"tool":{"arguments":${nest(5000)}}}`);
    expect(err.getStatus()).toBe(400);
    expect(err.extras.errors?.[0].field).toMatch(/^tool\.arguments\.0\.0/);
  });

  it('takes UTF-8 only: another declared charset is 415, bytes that are not UTF-8 are 400', () => {
    expect(declaredCharset('application/json; charset="UTF-8"')).toBe('utf-8');
    expect(declaredCharset('application/json')).toBeNull();
    expect(jsonBodyText(Buffer.from('{"name":"Zoë"}'), 'application/json; charset=utf-8')).toBe('{"name":"Zoë"}');
    expect(jsonBodyText(Buffer.from('{}'), 'application/json;charset=UTF8')).toBe('{}');
    expect(refusal('{}', 'application/json; charset=iso-8859-1').getStatus()).toBe(415);
    expect(refusal('{}', 'application/json; charset=utf-16').getStatus()).toBe(415);
    expect(refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])).getStatus()).toBe(400);
  });
});
