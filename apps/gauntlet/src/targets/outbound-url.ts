import { checkOutboundUrl } from '@gauntlet/outbound';
import { ProblemException } from '../http/problem';

/** Registration-time half of the SSRF guard (names are checked again after DNS, at connect time). */
export function requireOutboundUrl(url: string, allowPrivate: boolean, field = 'url'): void {
  const check = checkOutboundUrl(url, { allowPrivate });
  if (!check.ok) {
    throw new ProblemException(400, `${field} ${check.reason}.`, { slug: 'validation', title: 'Invalid request', errors: [{ field, message: check.reason }] });
  }
}
