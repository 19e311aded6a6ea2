import { classifyAddress, ipLiteralOf, parseIPv4, parseIPv6 } from '../../src/webhooks/address-policy';

describe('webhook address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.1.2', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
  ])('refuses %s (%s)', (address, why) => {
    expect(classifyAddress(address)).toBe(why);
  });

  it.each([
    '93.184.216.34',
    '1.1.1.1',
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '203.0.113.7',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts the public address %s', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it('refuses what is not an IP address', () => {
    for (const s of ['localhost', 'example.com', '1.2.3', '1.2.3.4.5', '01.2.3.4', '256.1.1.1', '1::2::3', '12345::', ':::', '']) {
      expect(classifyAddress(s)).toBe('not an IP address');
    }
  });

  it('parses IPv4 and IPv6 text, compressed, with an IPv4 tail or a zone', () => {
    expect(parseIPv4('192.168.0.1')).toEqual([192, 168, 0, 1]);
    expect(parseIPv4('192.168.00.1')).toBeNull();
    expect(parseIPv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6('a:b:c:d:e:f:1.2.3.4')).toEqual([0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x0102, 0x0304]);
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIPv6('1:2:3:4:5:6:7')).toBeNull();
    expect(parseIPv6('1:2:3:4::5:6:7:8')).toBeNull();
  });

  it('reads the host of a URL as an address only when it is one', () => {
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('127.0.0.1')).toBe('127.0.0.1');
    expect(ipLiteralOf('localhost')).toBeNull();
    // The URL parser writes every IPv4 spelling as a dotted quad, so none slips past as a name.
    for (const spelled of ['http://2130706433/', 'http://0x7f.1/', 'http://127.1/', 'http://0177.0.0.1/']) {
      const host = new URL(spelled).hostname;
      expect(ipLiteralOf(host)).toBe('127.0.0.1');
      expect(classifyAddress(host)).toBe('loopback');
    }
    expect(classifyAddress(ipLiteralOf(new URL('http://[::ffff:127.0.0.1]/').hostname)!)).toBe('loopback');
  });
});
