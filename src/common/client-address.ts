import { isIPv6 } from 'node:net';

/**
 * The client address failed logins are counted against: an IPv4 address as it is (also
 * when it arrives IPv4-mapped on a dual-stack socket), an IPv6 address by its /64 (one
 * client usually holds a whole /64, so counting single addresses would let it rotate).
 */
export function clientAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return ip;
  const split = bare.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').flatMap(ipv4AsGroups) : []);
  const head = groups(split[0]);
  const tail = split.length > 1 ? groups(split[1]) : [];
  const all = split.length > 1 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** An embedded IPv4 tail (`::1.2.3.4`) as the two groups it stands for. */
function ipv4AsGroups(g: string): string[] {
  if (!g.includes('.')) return [g];
  const [a, b, c, d] = g.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
