import { clientAddress } from '../../src/common/client-address';

describe('clientAddress: what failed logins are counted against', () => {
  it('keeps an IPv4 address, also when it arrives IPv4-mapped', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    const a = clientAddress('2001:db8:0:1:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:0:1::/64');
    expect(clientAddress('2001:0db8:0000:0001::1')).toBe(a);
    expect(clientAddress('2001:db8::1:0:0:0:1')).toBe(a);
    expect(clientAddress('2001:db8:0:2::1')).not.toBe(a);
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('keeps anything else as it is', () => {
    expect(clientAddress('unknown')).toBe('unknown');
    expect(clientAddress(undefined)).toBe('unknown');
  });
});
