import { createHash } from 'node:crypto';
import { fetchAndHashAssets } from './asset-fetcher';
import { AssetFetchError } from './fetch-error';
import { LoopbackServer, startHttpServer, testFetchOptions } from './testing/loopback-servers';

describe('fetchAndHashAssets', () => {
  let server: LoopbackServer;
  let inFlight = 0;
  let mostInFlight = 0;

  beforeAll(async () => {
    // /asset/<i>?delay=<ms>[&status=<code>]: answers after the delay with a body naming the asset.
    server = await startHttpServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const answer = setTimeout(
        () => {
          res.writeHead(Number(url.searchParams.get('status') ?? 200)).end(`content of ${url.pathname}`);
        },
        Number(url.searchParams.get('delay') ?? 0),
      );
      res.on('close', () => {
        inFlight--;
        clearTimeout(answer);
      });
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    mostInFlight = 0;
  });

  const options = (overrides = {}) => ({ ...testFetchOptions({ allowHosts: [`127.0.0.1:${server.port}`] }), concurrency: 3, ...overrides });
  // Later assets answer sooner, so completion order is the reverse of input order.
  const assets = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      name: `asset-${i}.zip`,
      url: server.url(`/asset/${i}?delay=${(count - i) * 15}`),
      platform: i,
    }));

  it('runs at most `concurrency` fetches at once, and uses all of them', async () => {
    await fetchAndHashAssets(assets(10), options());
    expect(mostInFlight).toBe(3);
  });

  it('returns results in input order, each with its own asset', async () => {
    const input = assets(10);
    const results = await fetchAndHashAssets(input, options());
    expect(results.map((r) => r.asset)).toEqual(input);
    results.forEach(({ fetched }, i) => {
      const body = `content of /asset/${i}`;
      expect(fetched).toMatchObject({ url: input[i].url, size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    });
  });

  it('rejects with the first failure, naming the asset, cancels the fetches in flight and starts no more', async () => {
    const before = server.requests;
    const input = assets(10).map((a) => ({ ...a, url: a.url.replace(/delay=\d+/, 'delay=10000') }));
    input[1] = { ...input[1], url: server.url('/asset/1?status=404') };
    const started = Date.now();
    const error = await fetchAndHashAssets(input, options()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AssetFetchError);
    expect(error).toMatchObject({ reason: 'status', status: 404, assetName: 'asset-1.zip', url: input[1].url });
    expect((error as Error).message).toBe('asset "asset-1.zip": HTTP 404 from 127.0.0.1');
    // Far below the 10 s the slow fetches would take: they were cancelled, not waited for.
    expect(Date.now() - started).toBeLessThan(5000);
    // At most the three the concurrency allows ever reach the server: none is started after the
    // failure. (Exactly three is a race: a fetch aborted early may never send its request.)
    const reached = server.requests - before;
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(reached).toBeLessThanOrEqual(3);
    await server.allClosed();
    expect(inFlight).toBe(0);
  });

  it('returns an empty list for no assets and rejects a nonsensical concurrency', async () => {
    await expect(fetchAndHashAssets([], options())).resolves.toEqual([]);
    await expect(fetchAndHashAssets(assets(1), options({ concurrency: 0 }))).rejects.toThrow(RangeError);
  });
});
