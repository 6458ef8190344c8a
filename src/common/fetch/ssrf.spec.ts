import { Socket } from 'node:net';
import { fetchAndHashAsset } from './asset-fetcher';
import { AssetFetchError } from './fetch-error';
import { fixedLookup, LoopbackServer, startHttpServer, testFetchOptions } from './testing/loopback-servers';

async function failure(promise: Promise<unknown>): Promise<AssetFetchError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof AssetFetchError)) throw new Error(`expected an AssetFetchError, got ${String(outcome)}`);
  return outcome;
}

describe('fetch policy against server-side request forgery', () => {
  let canary: LoopbackServer;
  let forge: LoopbackServer;
  let connectSpy: jest.SpyInstance;

  beforeAll(async () => {
    canary = await startHttpServer((_req, res) => res.end('secret'));
    // Answers /redirect with the Location in its query, and /hop/N with a chain of N redirects.
    forge = await startHttpServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://forge');
      const hops = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/redirect') res.writeHead(302, { location: url.searchParams.get('to') ?? '' }).end();
      else if (hops && Number(hops[1]) > 0) res.writeHead(302, { location: `/hop/${Number(hops[1]) - 1}` }).end();
      else res.end('arrived');
    });
  });
  afterAll(async () => {
    await canary.close();
    await forge.close();
  });
  beforeEach(() => {
    connectSpy = jest.spyOn(Socket.prototype, 'connect');
  });
  afterEach(() => {
    connectSpy.mockRestore();
    expect(canary.connections).toBe(0);
  });

  const forgeAllowed = () => [`127.0.0.1:${forge.port}`];

  it('spies on the same connect every fetch goes through (so the zero-connect assertions below can fail)', async () => {
    const fetched = await fetchAndHashAsset(forge.url('/plain'), testFetchOptions({ allowHosts: forgeAllowed() }));
    expect(fetched.size).toBe('arrived'.length);
    expect(connectSpy).toHaveBeenCalledTimes(1);
  });

  const refusedBeforeConnect: [string, () => string, 'refused-address' | 'refused-scheme', RegExp][] = [
    [
      'loopback IPv4 literal',
      () => `https://127.0.0.1:${canary.port}/x`,
      'refused-address',
      /^refused host 127\.0\.0\.1: it resolves to an address that is not fetched \(loopback\); only hosts in FETCH_ALLOW_HOSTS/,
    ],
    ['plain http to a host that is not allow-listed', () => `http://127.0.0.1:${canary.port}/x`, 'refused-scheme', /refused plain http/],
    ['localhost by name', () => `https://localhost:${canary.port}/x`, 'refused-address', /refused host localhost: a local name/],
    ['a subdomain of localhost', () => `https://api.localhost:${canary.port}/x`, 'refused-address', /a local name/],
    ['IPv4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${canary.port}/x`, 'refused-address', /IPv4-mapped loopback/],
    ['decimal integer IPv4', () => `https://2130706433:${canary.port}/x`, 'refused-address', /127\.0\.0\.1/],
    ['hexadecimal IPv4', () => `https://0x7f000001:${canary.port}/x`, 'refused-address', /127\.0\.0\.1/],
    ['octal IPv4', () => `https://0177.0.0.1:${canary.port}/x`, 'refused-address', /127\.0\.0\.1/],
    ['shortened IPv4', () => `https://127.1:${canary.port}/x`, 'refused-address', /127\.0\.0\.1/],
    ['IPv6 loopback', () => `https://[::1]:${canary.port}/x`, 'refused-address', /loopback/],
    ['cloud metadata', () => 'https://169.254.169.254/latest/meta-data', 'refused-address', /cloud metadata/],
    ['private network', () => 'https://10.0.0.5/x', 'refused-address', /private/],
    ['unspecified address', () => `https://0.0.0.0:${canary.port}/x`, 'refused-address', /unspecified/],
    ['a scheme other than http(s)', () => 'file:///etc/passwd', 'refused-scheme', /refused scheme file:/],
  ];

  it.each(refusedBeforeConnect)('refuses %s without resolving or connecting', async (_label, url, reason, message) => {
    const lookup = fixedLookup('93.184.215.14');
    const error = await failure(fetchAndHashAsset(url(), testFetchOptions({ lookup })));
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(message);
    expect(error.url).toBe(url());
    expect(lookup.hostnames).toEqual([]);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('refuses a public-looking name that resolves to loopback, before connecting', async () => {
    const lookup = fixedLookup('127.0.0.1');
    const error = await failure(fetchAndHashAsset(`https://public.example.test:${canary.port}/x`, testFetchOptions({ lookup })));
    expect(error.reason).toBe('refused-address');
    // The resolved address is what an SSRF probe wants to learn: the message never carries it.
    expect(error.message).toBe(
      'refused host public.example.test: it resolves to an address that is not fetched (loopback); only hosts in FETCH_ALLOW_HOSTS may use private addresses',
    );
    expect(error.message).not.toContain('127.0.0.1');
    expect(lookup.hostnames).toEqual(['public.example.test']);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  // Choice: one bad address in the answer refuses the host. Picking the good one would still let
  // a later connection (or a retry on another address) land on the bad one.
  it.each([[['93.184.215.14', '127.0.0.1']], [['127.0.0.1', '93.184.215.14']], [['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::1']]])(
    'refuses a name whose answer mixes public and private addresses %j',
    async (addresses) => {
      const error = await failure(
        fetchAndHashAsset(`https://rebind.example.test:${canary.port}/x`, testFetchOptions({ lookup: fixedLookup(...addresses) })),
      );
      expect(error.reason).toBe('refused-address');
      expect(connectSpy).not.toHaveBeenCalled();
    },
  );

  it('re-applies the policy to a redirect: allow-listed forge → https name resolving to loopback is refused', async () => {
    const to = `https://evil.example.test:${canary.port}/x`;
    const url = forge.url(`/redirect?to=${encodeURIComponent(to)}`);
    const error = await failure(fetchAndHashAsset(url, testFetchOptions({ allowHosts: forgeAllowed(), lookup: fixedLookup('127.0.0.1') })));
    expect(error.reason).toBe('refused-address');
    expect(error.message).toContain('refused host evil.example.test');
    expect(error.message).not.toContain('127.0.0.1');
    expect(error.url).toBe(url);
    expect(connectSpy).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an IP literal in another notation', (port: number) => `http://2130706433:${port}/x`, 'refused-scheme'],
    ['an allow-listed host on another port', (port: number) => `http://127.0.0.1:${port}/x`, 'refused-scheme'],
    ['https to the canary', (port: number) => `https://127.0.0.1:${port}/x`, 'refused-address'],
  ])('refuses a redirect to %s', async (_label, target, reason) => {
    const url = forge.url(`/redirect?to=${encodeURIComponent(target(canary.port))}`);
    const error = await failure(fetchAndHashAsset(url, testFetchOptions({ allowHosts: forgeAllowed() })));
    expect(error.reason).toBe(reason);
  });

  it('follows 5 redirects, resolving each hop once and only once', async () => {
    const lookup = fixedLookup('127.0.0.1');
    const url = `http://forge.example.test:${forge.port}/hop/5`;
    const fetched = await fetchAndHashAsset(url, testFetchOptions({ allowHosts: ['forge.example.test'], lookup }));
    expect(fetched.finalUrl).toBe(`http://forge.example.test:${forge.port}/hop/0`);
    expect(fetched.size).toBe('arrived'.length);
    expect(lookup.hostnames).toHaveLength(6);
    expect(connectSpy).toHaveBeenCalledTimes(6);
  });

  it('refuses the 6th redirect', async () => {
    const error = await failure(fetchAndHashAsset(forge.url('/hop/6'), testFetchOptions({ allowHosts: forgeAllowed() })));
    expect(error.reason).toBe('too-many-redirects');
    expect(error.message).toBe('more than 5 redirects (last from 127.0.0.1)');
    expect(connectSpy).toHaveBeenCalledTimes(6);
  });
});
