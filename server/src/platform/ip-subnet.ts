import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, for limits per subnet: the /24 of an IPv4 address
 * ("203.0.113.0/24"), the /64 of an IPv6 one ("2001:db8:0:1::/64"). An IPv4-mapped IPv6 address
 * (::ffff:203.0.113.7, as a dual-stack socket reports IPv4 clients) counts as its IPv4 address.
 * Anything else (not an address) is its own network.
 */
export function subnetOf(address: string): string {
  const ip = plainAddress(address);
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(ip)) return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

/** 127.0.0.0/8 or ::1 (after plainAddress). */
export function isLoopback(address: string): boolean {
  const ip = plainAddress(address);
  return ip === '::1' || (isIPv4(ip) && ip.startsWith('127.'));
}

/** The address without an IPv6 zone, and an IPv4-mapped IPv6 address as IPv4. */
export function plainAddress(address: string): string {
  const ip = address.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  return mapped ? mapped[1] : ip;
}

/** The eight groups of a valid IPv6 address, without leading zeros ("::" expanded, an IPv4 tail as two groups). */
function ipv6Groups(ip: string): string[] {
  let text = ip;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = text.slice(0, -tail[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16).toString(16));
}
