import { BlockList, isIP } from 'node:net';

/** What the operator allows (OUTBOUND_ALLOW_PRIVATE); everything else is refused. */
export interface OutboundPolicy {
  allowPrivate: boolean;
}

// Cloud metadata endpoints hand out credentials: refused even when private addresses are allowed.
const metadata = new BlockList();
metadata.addAddress('169.254.169.254', 'ipv4');
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

/** IPv4 hidden inside an IPv6 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIPv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1];
  const words = expandIPv6(lower);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

function expandIPv6(ip: string): number[] | null {
  if (isIP(ip) !== 6 || ip.includes('.')) return null;
  const [head, tail] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = ip.includes('::') ? 8 - h.length - t.length : 0;
  const all = [...h, ...Array(fill).fill('0'), ...t];
  return all.length === 8 ? all.map((w) => parseInt(w, 16)) : null;
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
  if (metadata.check(ip, type)) return `${ip} is a cloud metadata address`;
  if (unspecified.check(ip, type)) return `${ip} is an unspecified address`;
  if (!policy.allowPrivate && privateRanges.check(ip, type)) {
    return `${ip} is a loopback, private or link-local address (set OUTBOUND_ALLOW_PRIVATE=true to allow)`;
  }
  return null;
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
  }
  return { ok: true, url };
}
