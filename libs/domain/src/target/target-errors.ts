/**
 * What went wrong talking to a target, as data, so a check can say what to change without
 * parsing messages. `looksLike` is the API format, or `html` for a web page, that an unreadable
 * answer resembled.
 */
export type TargetFailure =
  | { kind: 'refused'; detail: string }
  | { kind: 'http'; status: number; contentType: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'network'; code: string }
  | { kind: 'tls'; code: string }
  | { kind: 'unreadable'; contentType: string; looksLike: string | null; status?: number }
  | { kind: 'streamed-error'; detail: string }
  | { kind: 'page'; step: PageStep; install?: string }
  | { kind: 'settings'; field: string };

/**
 * Where in driving a chat page it failed. `settle`: the page kept the browser busy past a
 * deadline (a frame that never loads, a script that never ends, endless dialogs or reloads).
 */
export type PageStep = 'launch' | 'load' | 'input' | 'send' | 'answer' | 'settle';

/**
 * The target did not answer (connection refused, timed out, 5xx after retries, browser
 * crashed). The engine uses it to end a scan `failed` (never answered) or
 * `completed_partial` (stopped answering after probing began). Here, beside the failure it
 * carries, because the API formats' readers (formats/) say it too.
 */
export class TargetUnavailableError extends Error {
  /** chat pages, when asked for: what the page looked like when it failed */
  screenshot?: Buffer;
  constructor(message: string, readonly cause?: unknown, readonly failure?: TargetFailure) {
    super(message);
    this.name = 'TargetUnavailableError';
  }
}

/** The target answered, but not in a form the driver can read (misconfigured format/selectors). */
export class TargetProtocolError extends Error {
  screenshot?: Buffer;
  constructor(message: string, readonly failure?: TargetFailure) {
    super(message);
    this.name = 'TargetProtocolError';
  }
}
