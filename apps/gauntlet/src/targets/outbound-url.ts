import { checkOutboundUrl } from '@gauntlet/outbound';
import { ProblemException } from '../http/problem';

/** Registration-time half of the SSRF guard (names are checked again after DNS, at connect time). */
export function requireOutboundUrl(url: string, allowPrivate: boolean, field = 'url'): void {
  const check = checkOutboundUrl(url, { allowPrivate });
  if (!check.ok) {
    throw new ProblemException(400, `${field} ${check.reason}.`, { slug: 'validation', title: 'Invalid request', errors: [{ field, message: check.reason }] });
  }
}

/** The operator's outbound policy (OUTBOUND_ALLOW_PRIVATE), as the handlers that register a URL apply it. */
export class OutboundPolicy {
  constructor(readonly allowPrivate: boolean) {}

  /** a 400 for a URL whose address is refused */
  requireUrl(url: string, field = 'url'): void {
    requireOutboundUrl(url, this.allowPrivate, field);
  }
}
