import type { PageApi } from './api';
import { findInput, findLauncher, findSend } from './controls';
import { watchSends } from './numbering';
import { noteOrigin, watchOrigins } from './origins';
import { currentSends, observation, read, sent, snapshot } from './reading';

/**
 * The page script, run in every frame of a scanned page (bundled into one script at build: see
 * page-script.ts). It finds the chat input, the send control and the answer on chat pages nobody
 * described to us, walking open shadow roots (web components) as well as the light DOM, and
 * offers them to the driver as `window.__gauntlet` (api.ts).
 */
if (!window.__gauntlet) {
  // a page opening windows in a loop steals focus from the chat and starves the browser: a chat
  // needs no popup, so none opens (those that slip through are closed by the driver)
  try { Object.defineProperty(window, 'open', { value: () => null, configurable: false, writable: false }); } catch { /* a page that froze it */ }
  watchSends(currentSends);
  watchOrigins();
  const api: PageApi = { findInput, findSend, findLauncher, snapshot, noteOrigin, observation, sent, read };
  Object.defineProperty(window, '__gauntlet', { value: api, enumerable: false });
}
