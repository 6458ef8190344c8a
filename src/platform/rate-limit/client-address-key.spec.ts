import { clientAddressKey } from './client-address-key';

describe('clientAddressKey', () => {
  it('counts an IPv4 client by its address', () => {
    expect(clientAddressKey('203.0.113.9', 64)).toBe('203.0.113.9');
    expect(clientAddressKey('203.0.113.10', 64)).toBe('203.0.113.10');
  });

  it('counts IPv4-mapped IPv6 as the IPv4 client it maps, in every spelling', () => {
    for (const mapped of [
      '::ffff:203.0.113.9',
      '::FFFF:203.0.113.9',
      '::ffff:cb00:7109',
      '0:0:0:0:0:ffff:cb00:7109',
      '[::ffff:203.0.113.9]',
    ]) {
      expect(clientAddressKey(mapped, 64)).toBe('203.0.113.9');
    }
  });

  it('counts an IPv6 client by its /64: every address in it is one client', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a:b:c:d',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2::A',
    ]) {
      expect(clientAddressKey(address, 64)).toBe(key);
    }
    expect(clientAddressKey('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
  });

  it('reads compressed forms, zone ids, brackets and a dotted-quad tail alike', () => {
    expect(clientAddressKey('fe80::1%eth0', 64)).toBe('fe80::/64');
    expect(clientAddressKey('fe80::1%25en0', 64)).toBe('fe80::/64');
    expect(clientAddressKey('[2001:db8::1]', 64)).toBe('2001:db8::/64');
    expect(clientAddressKey('::1', 64)).toBe('::/64');
    expect(clientAddressKey('2001:db8::', 64)).toBe('2001:db8::/64');
    expect(clientAddressKey('2001:db8:0:0:1::192.0.2.1', 64)).toBe('2001:db8::/64');
    expect(clientAddressKey('2001:db8:1:0:1::', 64)).toBe('2001:db8:1::/64');
  });

  it('takes the prefix length it is given, also one that splits a byte', () => {
    expect(clientAddressKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientAddressKey('2001:db8:1:2::1', 56)).toBe('2001:db8:1::/56');
    expect(clientAddressKey('2001:db8:1:2ff::1', 60)).toBe('2001:db8:1:2f0::/60');
    expect(clientAddressKey('2001:db8:1:2ff::1', 63)).toBe('2001:db8:1:2fe::/63');
    expect(clientAddressKey('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1/128');
  });

  it('counts no address as unknown and a value that is no address as itself', () => {
    expect(clientAddressKey(null, 64)).toBe('unknown');
    expect(clientAddressKey(undefined, 64)).toBe('unknown');
    expect(clientAddressKey('', 64)).toBe('unknown');
    expect(clientAddressKey('not-an-address', 64)).toBe('not-an-address');
  });
});
