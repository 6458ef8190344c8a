import { checkConnectedPeer, FetchTarget } from './fetch-target';

describe('checkConnectedPeer (the last guard, after connect)', () => {
  const target = (allowListed: boolean, address: string): FetchTarget => ({
    url: new URL('https://assets.example.test/a.zip'),
    secure: true,
    hostname: 'assets.example.test',
    port: 443,
    allowListed,
    addresses: [{ address, family: address.includes(':') ? 6 : 4 }],
  });

  it('passes the vetted public address, also when the socket reports it IPv4-mapped', () => {
    expect(checkConnectedPeer(target(false, '93.184.215.14'), '93.184.215.14')).toBeNull();
    expect(checkConnectedPeer(target(false, '93.184.215.14'), '::ffff:93.184.215.14')).toBeNull();
  });

  it('refuses a peer other than the vetted address', () => {
    const refusal = checkConnectedPeer(target(false, '93.184.215.14'), '93.184.215.15');
    expect(refusal).toMatchObject({ reason: 'refused-address' });
    expect(refusal?.message).toContain(
      'refused host assets.example.test: it resolves to an address that is not fetched (not the address that was checked)',
    );
    expect(refusal?.message).not.toContain('93.184.215.15');
  });

  it('refuses a private peer of a host that is not allow-listed, even if it was somehow vetted', () => {
    expect(checkConnectedPeer(target(false, '10.0.0.5'), '10.0.0.5')?.message).toMatch(/\(private\);/);
    expect(checkConnectedPeer(target(true, '10.0.0.5'), '10.0.0.5')).toBeNull();
  });

  it('refuses when the peer address is unknown', () => {
    expect(checkConnectedPeer(target(true, '10.0.0.5'), undefined)?.reason).toBe('refused-address');
  });
});
