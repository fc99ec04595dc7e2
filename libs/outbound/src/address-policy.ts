import { BlockList, isIP } from 'node:net';

/** What the operator allows (OUTBOUND_ALLOW_PRIVATE); everything else is refused. */
export interface OutboundPolicy {
  allowPrivate: boolean;
}

// Cloud metadata and credential endpoints: refused even when private addresses are allowed.
// All of IPv4 link-local goes, not just 169.254.169.254: ECS hands task credentials out at
// 169.254.170.2, and no chatbot a scan could target lives on a link-local address.
const metadata = new BlockList();
metadata.addSubnet('169.254.0.0', 16, 'ipv4');
metadata.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud
metadata.addAddress('fd00:ec2::254', 'ipv6');

// "Unspecified" addresses reach the local host on Linux; never a legitimate destination.
const unspecified = new BlockList();
unspecified.addSubnet('0.0.0.0', 8, 'ipv4');
unspecified.addAddress('::', 'ipv6');

const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6');
}

/**
 * IPv4 hidden inside an IPv6 address: mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96,
 * the deprecated compatible ::/96, NAT64 64:ff9b::/96 and 6to4 2002::/16. The kernel or a
 * gateway turns these into IPv4 connections, so they get the IPv4 address's verdict.
 */
function embeddedIPv4(ip: string): string | null {
  const w = expandIPv6(ip);
  if (!w) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && w[5] === 0xffff) return v4(w[6], w[7]);
  if (zero(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6], w[7]);
  // :: and ::1 keep their own IPv6 meaning
  if (zero(0, 6) && !(w[6] === 0 && w[7] <= 1)) return v4(w[6], w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return v4(w[6], w[7]);
  if (w[0] === 0x2002) return v4(w[1], w[2]);
  return null;
}

/** the eight 16-bit words of an IPv6 address, in any textual form (dotted tails included) */
function expandIPv6(ip: string): number[] | null {
  if (isIP(ip) !== 6) return null;
  // the URL parser serialises IPv6 canonically: hex words only, zeros compressed
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = canonical.includes('::') ? 8 - h.length - t.length : 0;
  const all = [...h, ...Array(fill).fill('0'), ...t];
  return all.length === 8 ? all.map((x) => parseInt(x, 16)) : null;
}

/**
 * Why an address may not be contacted, or null when it may.
 * Accepts IPv4, IPv6 and bracketed IPv6 literals.
 */
export function refusalReason(address: string, policy: OutboundPolicy): string | null {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return `${address} is not an IP address`;
  const inner = family === 6 ? embeddedIPv4(ip) : null;
  if (inner) return refusalReason(inner, policy);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (metadata.check(ip, type)) return `${ip} is a link-local or cloud metadata address`;
  if (unspecified.check(ip, type)) return `${ip} is an unspecified address`;
  if (!policy.allowPrivate && privateRanges.check(ip, type)) {
    return `${ip} is a loopback, private or link-local address (set OUTBOUND_ALLOW_PRIVATE=true to allow)`;
  }
  return null;
}

/** RFC 6761: `localhost` and every name under `.localhost` resolve to loopback */
function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The check made when a target or webhook is registered: an http(s) URL without credentials,
 * whose host, if an IP literal, is allowed. Host names are checked again after DNS, at connect
 * time, by the guarded dispatcher.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must use http or https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials; use api_key instead' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = refusalReason(host, policy);
    if (reason) return { ok: false, reason: `refused: ${reason}` };
  } else if (!policy.allowPrivate && isLoopbackName(host)) {
    // refused at connect time anyway; saying so at registration spares a failed scan
    return { ok: false, reason: `refused: ${host} names the local host (set OUTBOUND_ALLOW_PRIVATE=true to allow)` };
  }
  return { ok: true, url };
}
