/**
 * Stream names, one place: every stream is `<kind>-<id>`. Writers name a
 * stream with `streams.<kind>(id)`; consumers of the log tell streams apart with `streamPrefixes`
 * and `isStream`, never with a spelled-out prefix.
 */
export const streamPrefixes = {
  account: 'account-',
  /** keyed by the hash of the normalised email: what makes an email unique */
  emailReservation: 'email-',
  /** an account's scans of one month, keyed `<account id>-<YYYY-MM>` */
  scanQuota: 'quota-',
  target: 'target-',
  scan: 'scan-',
  webhook: 'webhook-',
  monitor: 'monitor-',
  schedule: 'schedule-',
} as const;

export type StreamKind = keyof typeof streamPrefixes;

export const streams = {
  account: (id: string) => `${streamPrefixes.account}${id}`,
  emailReservation: (emailHash: string) => `${streamPrefixes.emailReservation}${emailHash}`,
  scanQuota: (accountId: string, month: string) => `${streamPrefixes.scanQuota}${accountId}-${month}`,
  target: (id: string) => `${streamPrefixes.target}${id}`,
  scan: (id: string) => `${streamPrefixes.scan}${id}`,
  webhook: (id: string) => `${streamPrefixes.webhook}${id}`,
  monitor: (targetId: string) => `${streamPrefixes.monitor}${targetId}`,
  schedule: (id: string) => `${streamPrefixes.schedule}${id}`,
} as const;

/** whether `streamId` is a stream of `kind` */
export const isStream = (kind: StreamKind, streamId: string): boolean => streamId.startsWith(streamPrefixes[kind]);
