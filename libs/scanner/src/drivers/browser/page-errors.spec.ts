import { randomTexts } from '../../../testing/random-texts';
import { inGauntletWords, saysClosed } from './page-errors';

describe("the browser's failures in Gauntlet's words", () => {
  it.each([
    ['page.goto: Timeout 4000ms exceeded.\nCall log:\n  - navigating to "http://x/", waiting until "domcontentloaded"', 'nothing came within 4 s'],
    ['page.goto: net::ERR_TUNNEL_CONNECTION_FAILED at https://x/\nCall log:', "Gauntlet's outbound guard could not connect to the site (refused or unreachable)"],
    ['page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/', 'nothing accepted the connection'],
    ['page.goto: net::ERR_CERT_AUTHORITY_INVALID at https://x/', "the site's TLS certificate was not accepted"],
    ['page.goto: net::ERR_SOMETHING_NEW at http://x/', "the browser's connection failed (something new)"],
    ['page.evaluate: Target page, context or browser has been closed', 'the browser closed the page before it was done'],
    ['page.evaluate: Execution context was destroyed, most likely because of a navigation', 'the page navigated away while it was being read'],
    ['locator.fill: Element is not visible', 'the chat controls could not be used (hidden, disabled or covered by something else)'],
    ['frame.evaluate: TypeError: el.getAttribute is not a function\n    at wordsOf (<anonymous>:121:23)', "Gauntlet's reader failed on this page (the page's structure, or a script of the page's, broke it)"],
    ['Protocol error (Runtime.callFunctionOn): something internal', 'the browser could not complete it'],
  ])('%s', (playwright, ours) => {
    const said = inGauntletWords(playwright);
    expect(said).toBe(ours);
    expect(said).not.toMatch(/page\.|net::|Call log|Protocol error|Timeout \d+ms/);
  });
});

describe('a message that says the page was closed', () => {
  it('is one the pattern that read the rest of a line from each word found (3,000 random messages)', () => {
    const before = /(?:Target|page|context|browser)[^\n]*(?:has been )?closed/i;
    const pieces = ['Target', 'page', 'PAGE', 'context', 'browser', 'closed', 'CLOSED', 'has been ', ' ', '\n', 'a', 'clos', 'pag', 'e'];
    randomTexts(pieces, 3000, 12, 'closed').forEach((text) => expect([text, saysClosed(text)]).toEqual([text, before.test(text)]));
  });
});
