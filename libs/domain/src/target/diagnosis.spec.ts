import { CheckSubject, diagnose, withoutTrailingStops } from './diagnosis';
import type { TargetFailure } from './target-errors';

const api: CheckSubject = { scan_mode: 'api', api_format: 'openai', url: 'https://h.example/v1', endpoint: 'https://h.example/v1/chat/completions', has_api_key: true };
const failed = (failure: TargetFailure, subject: CheckSubject = api) => diagnose(subject, { kind: 'failed', failure, message: 'driver words' }, 12);

describe('what a connection check says', () => {
  it('an answer is fine; an empty one is not', () => {
    expect(diagnose(api, { kind: 'answered', answer: 'Hi!' }, 140)).toEqual({ ok: true, diagnosis: 'The target answered as OpenAI chat completions in 140 ms.', hint: null });
    expect(diagnose(api, { kind: 'answered', answer: '  ' }, 140)).toMatchObject({ ok: false, hint: expect.stringMatching(/model/) });
  });

  it('a chat page says whether the answer was read from the bot\'s own message, and what an uncertain reading means', () => {
    const page: CheckSubject = { scan_mode: 'browser', api_format: null, url: 'https://shop.example/', endpoint: 'https://shop.example/', has_api_key: false };
    expect(diagnose(page, { kind: 'answered', answer: 'Hi!', attribution: 'bot_message' }, 900).diagnosis).toBe('The chat page found the chat input, sent a message and read the answer from the bot\'s own message in 900 ms.');
    const uncertain = diagnose(page, { kind: 'answered', answer: 'Hi!', attribution: 'uncertain', attribution_reason: 'our message did not appear as a message of its own when we sent it' }, 900);
    expect(uncertain).toMatchObject({ ok: true, hint: expect.stringMatching(/response_selector/) });
    expect(uncertain.diagnosis).toMatch(/could not tell the bot's message from its own \(our message did not appear .*\).*medium at most/);
  });

  it('names the header a refused key went in, or that there is no key', () => {
    expect(failed({ kind: 'http', status: 401, contentType: '' }, { ...api, api_format: 'azure-openai' }).hint).toMatch(/sent as api-key/);
    expect(failed({ kind: 'http', status: 403, contentType: '' }, { ...api, has_api_key: false }).hint).toMatch(/No api_key is stored/);
  });

  it('after a 404: the endpoint that answers, else the URL the format expects; Ollama\'s missing model', () => {
    expect(failed({ kind: 'http', status: 404, contentType: '' }).hint).toMatch(/base URL the OpenAI SDKs take/);
    expect(diagnose(api, { kind: 'failed', failure: { kind: 'http', status: 404, contentType: '' }, message: '' }, 1, 'https://h.example/api/v1/chat/completions').hint).toBe(
      'https://h.example/api/v1/chat/completions answers: set url to it.',
    );
    expect(failed({ kind: 'http', status: 404, contentType: '' }, { ...api, api_format: 'ollama' }).hint).toMatch(/ollama pull/);
  });

  it('the outbound policy names OUTBOUND_ALLOW_PRIVATE, except for metadata addresses', () => {
    expect(failed({ kind: 'refused', detail: 'resolves to 127.0.0.1, a loopback address' }).hint).toMatch(/OUTBOUND_ALLOW_PRIVATE=true/);
    expect(failed({ kind: 'refused', detail: 'resolves to 169.254.169.254, a cloud metadata address' }).hint).toMatch(/always refused/);
  });

  it('time-outs, names that do not resolve, TLS on a plain port and untrusted certificates say so', () => {
    expect(failed({ kind: 'timeout', ms: 20_000 }).diagnosis).toMatch(/did not answer within 20 s/);
    expect(failed({ kind: 'network', code: 'ENOTFOUND' }).diagnosis).toMatch(/h\.example does not resolve/);
    expect(failed({ kind: 'tls', code: 'ERR_SSL_WRONG_VERSION_NUMBER' }).hint).toMatch(/http:\/\//);
    expect(failed({ kind: 'tls', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }).diagnosis).toMatch(/certificate was not accepted/);
  });

  it('a web page suggests browser mode; another API\'s answer names its format', () => {
    expect(failed({ kind: 'unreadable', contentType: 'text/html', looksLike: 'html' }).hint).toMatch(/scan_mode browser/);
    expect(failed({ kind: 'unreadable', contentType: 'application/json', looksLike: 'gemini' }).hint).toBe('Set api_format to gemini.');
  });

  it('a chat page without a chat input asks for selectors', () => {
    const page: CheckSubject = { ...api, scan_mode: 'browser', api_format: null };
    expect(failed({ kind: 'page', step: 'input' }, page).hint).toMatch(/browser.input_selector/);
    expect(failed({ kind: 'page', step: 'launch' }, page).hint).toMatch(/CHROMIUM_PATH/);
  });

  it('our own listener as a target says it is Gauntlet itself, not to allow private addresses', () => {
    const verdict = failed({ kind: 'refused', detail: "127.0.0.1:3000 is one of Gauntlet's own listeners (never reachable from a scanned page or an outbound request)" });
    expect(verdict.hint).toMatch(/Gauntlet itself/);
    expect(verdict.hint).not.toMatch(/start Gauntlet with OUTBOUND_ALLOW_PRIVATE=true/);
  });

  it('no browser on the server names the one command that installs it', () => {
    const page: CheckSubject = { ...api, scan_mode: 'browser', api_format: null };
    const verdict = failed({ kind: 'page', step: 'launch', install: 'npx playwright-core install --with-deps chromium' }, page);
    expect(verdict.diagnosis).toMatch(/No Chromium/);
    expect(verdict.hint).toContain('`npx playwright-core install --with-deps chromium`');
  });

  it('a page that never settles says so', () => {
    const page: CheckSubject = { ...api, scan_mode: 'browser', api_format: null };
    expect(failed({ kind: 'page', step: 'settle' }, page).diagnosis).toMatch(/did not settle/);
  });

  it('says what the driver said once, never its prefix twice', () => {
    const page: CheckSubject = { ...api, scan_mode: 'browser', api_format: null };
    const said = (step: 'load' | 'settle', message: string) => diagnose(page, { kind: 'failed', failure: { kind: 'page', step }, message }, 1).diagnosis;
    expect(said('load', 'the chat page did not load: nothing came within 30 s')).toBe('The chat page did not load: nothing came within 30 s.');
    expect(said('settle', 'the page did not settle: reading the answer took longer than 5000 ms')).toBe('The page did not settle: reading the answer took longer than 5000 ms.');
    expect(said('settle', "nothing came of it within 60 s (the check's deadline); the browser was closed")).toBe("The page did not settle: nothing came of it within 60 s (the check's deadline); the browser was closed.");
  });
});

describe('a reason without its trailing full stops and spaces', () => {
  it('is what `.replace(/[.\\s]+$/, \'\')` left, on every text of up to 7 of its pieces', () => {
    const pieces = ['.', ' ', '\t', '\n', '\u00a0', 'a', '.a'];
    let texts = [''];
    const all: string[] = [];
    for (let length = 1; length <= 7; length++) {
      texts = texts.flatMap((t) => pieces.map((p) => t + p));
      for (const t of texts) all.push(t);
    }
    const differing = all.filter((t) => withoutTrailingStops(t) !== t.replace(/[.\s]+$/, ''));
    expect([all.length, differing]).toEqual([960799, []]);
  });
});
