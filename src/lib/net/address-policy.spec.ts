import { InvalidAllowHostError, isAllowListed, isLocalhostName, parseAllowedHost, refusedAddressKind } from './address-policy';
import { canonicalIp, formatIpAddress, parseIpAddress } from './ip-address';

function kindOf(address: string): string | null {
  const bytes = parseIpAddress(address);
  if (!bytes) throw new Error(`test address ${address} does not parse`);
  return refusedAddressKind(bytes);
}

describe('IP parsing', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::ffff:7f00:1', '::ffff:7f00:1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['::', '::'],
  ])('%s formats as %s', (text, formatted) => {
    expect(formatIpAddress(parseIpAddress(text)!)).toBe(formatted);
  });

  it.each(['localhost', '127.1', '0x7f000001', '1.2.3.4.5', ':::1', '[::1'])('%s is not an address here', (text) => {
    expect(parseIpAddress(text)).toBeNull();
  });

  it('collapses IPv4-mapped IPv6 to the IPv4 it carries', () => {
    expect(canonicalIp(parseIpAddress('::ffff:10.1.2.3')!)).toBe('10.1.2.3');
  });
});

describe('refusedAddressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.100.100.200', 'cloud metadata'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.192', 'cloud metadata'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::10.0.0.1', 'NAT64 private'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['2002:a9fe:a9fe::1', '6to4 cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'IETF protocol assignment (Teredo, benchmarking, ORCHID)'],
    ['4000::1', 'reserved'],
  ])('%s is refused as %s', (address, kind) => {
    expect(kindOf(address)).toBe(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(kindOf(address)).toBeNull();
  });
});

describe('localhost names', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.localhost..'])('%s is local', (name) => {
    expect(isLocalhostName(name)).toBe(true);
  });
  it.each(['localhost.example', 'notlocalhost', 'example.test'])('%s is not', (name) => {
    expect(isLocalhostName(name)).toBe(false);
  });
});

describe('allow-list entries', () => {
  const allowed = ['forge.internal', 'Mirror.Internal:8080', '127.0.0.1:9000', '[::1]'].map(parseAllowedHost);

  it('matches a bare host on any port and host:port on that port only', () => {
    expect(isAllowListed(allowed, 'forge.internal', 80)).toBe(true);
    expect(isAllowListed(allowed, 'forge.internal', 443)).toBe(true);
    expect(isAllowListed(allowed, 'mirror.internal', 8080)).toBe(true);
    expect(isAllowListed(allowed, 'mirror.internal', 8081)).toBe(false);
    expect(isAllowListed(allowed, '127.0.0.1', 9000)).toBe(true);
    expect(isAllowListed(allowed, '127.0.0.1', 9001)).toBe(false);
    expect(isAllowListed(allowed, '[::1]', 1234)).toBe(true);
    expect(isAllowListed(allowed, 'sub.forge.internal', 80)).toBe(false);
  });

  it.each(['host:port', 'a b', 'http://host', 'host:70000', '[nothex]', ''])('rejects "%s"', (entry) => {
    expect(() => parseAllowedHost(entry)).toThrow(InvalidAllowHostError);
  });
});
