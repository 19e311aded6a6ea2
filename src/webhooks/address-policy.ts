/**
 * Which addresses a webhook may be sent to (pure: no I/O). Unless WEBHOOK_ALLOW_PRIVATE
 * is set, a webhook goes only to a public address: never to the service's own machine or
 * network (loopback, RFC 1918 private, link-local, CGNAT, unique-local, unspecified), nor
 * to multicast or reserved space. An IPv6 address that carries an IPv4 one (mapped,
 * compatible, NAT64, 6to4) is judged by the IPv4 address it reaches.
 *
 * The documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32)
 * are not refused: nothing answers there, on this network or any other.
 */

/** Why an address is refused; null: it is public. */
export type AddressRefusal = 'loopback' | 'private' | 'link-local' | 'shared (CGNAT)' | 'unique-local' | 'unspecified' | 'multicast' | 'reserved' | 'not an IP address';

/** The four octets of a dotted-quad IPv4 address (decimal, no leading zeros), or null. */
export function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

/** The eight 16-bit groups of an IPv6 address (`::`, a trailing dotted IPv4 and a `%zone` accepted), or null. */
export function parseIPv6(input: string): number[] | null {
  let s = input;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (s.length === 0 || s.length > 45) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.')) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4 || lastColon < 0) return null;
    tail = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
    s = s.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::", "ffff::1.2.3.4" leaves "ffff::", "a:b:c:d:e:f:1.2.3.4" leaves "a:…:f:".
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (text: string): number[] | null => {
    if (text === '') return [];
    const out: number[] = [];
    for (const g of text.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  if (!head) return null;
  if (halves.length === 1) {
    const all = [...head, ...tail];
    return all.length === 8 ? all : null;
  }
  const rest = groups(halves[1]);
  if (!rest) return null;
  const known = head.length + rest.length + tail.length;
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

const inV4 = (o: number[], net: [number, number, number, number], bits: number): boolean => {
  const addr = ((o[0] << 24) | (o[1] << 16) | (o[2] << 8) | o[3]) >>> 0;
  const base = ((net[0] << 24) | (net[1] << 16) | (net[2] << 8) | net[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (addr & mask) >>> 0 === (base & mask) >>> 0;
};

function classifyV4(o: number[]): AddressRefusal | null {
  if (inV4(o, [0, 0, 0, 0], 8)) return 'unspecified';
  if (inV4(o, [127, 0, 0, 0], 8)) return 'loopback';
  if (inV4(o, [10, 0, 0, 0], 8) || inV4(o, [172, 16, 0, 0], 12) || inV4(o, [192, 168, 0, 0], 16)) return 'private';
  if (inV4(o, [169, 254, 0, 0], 16)) return 'link-local';
  if (inV4(o, [100, 64, 0, 0], 10)) return 'shared (CGNAT)';
  if (inV4(o, [224, 0, 0, 0], 4)) return 'multicast';
  // IETF protocol assignments, benchmarking, and 240/4 (reserved, with the broadcast address).
  if (inV4(o, [192, 0, 0, 0], 24) || inV4(o, [198, 18, 0, 0], 15) || inV4(o, [240, 0, 0, 0], 4)) return 'reserved';
  return null;
}

const v4Of = (hi: number, lo: number): number[] => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

function classifyV6(g: number[]): AddressRefusal | null {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return classifyV4(v4Of(g[6], g[7]));
  // NAT64: the well-known prefix reaches the IPv4 address it carries; the local-use one, a local translator.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(v4Of(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'private';
  // 6to4 carries its IPv4 gateway in the next 32 bits.
  if (g[0] === 0x2002) return classifyV4(v4Of(g[1], g[2]));
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  // Site-local (deprecated, fec0::/10): private by its definition.
  if ((g[0] & 0xffc0) === 0xfec0) return 'private';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  // Discard-only (100::/64) and benchmarking (2001:2::/48).
  if ((g[0] === 0x100 && zeroUpTo(4)) || (g[0] === 0x2001 && g[1] === 2 && g[2] === 0)) return 'reserved';
  // Only global unicast (2000::/3) is routed on the internet.
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved';
  return null;
}

/** Why a webhook may not be sent to this IP address (IPv4 or IPv6 text), or null when it is public. */
export function classifyAddress(address: string): AddressRefusal | null {
  const v4 = parseIPv4(address);
  if (v4) return classifyV4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyV6(v6);
  return 'not an IP address';
}

/** The host of a URL as an IP address when it is one (`[::1]` unbracketed), else null (a host name). */
export function ipLiteralOf(hostname: string): string | null {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return parseIPv4(h) || parseIPv6(h) ? h : null;
}
