import { createHash } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { AssetFetchOptions, fetchAndHashAsset } from './asset-fetcher';
import { AssetFetchError } from './fetch-error';
import { systemTimers } from './fetch-timers';
import { fetchText } from './fetch-text';
import { USER_AGENT } from './http-exchange';
import {
  deterministicBytes,
  LoopbackServer,
  patternBytes,
  startHttpServer,
  startRawServer,
  streamPattern,
  testFetchOptions,
} from './testing/loopback-servers';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function failure(promise: Promise<unknown>): Promise<AssetFetchError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof AssetFetchError)) throw new Error(`expected an AssetFetchError, got ${String(outcome)}`);
  return outcome;
}

/** Writes until the client goes away; resolves `closed` when the server sees the connection end. */
function streamForever(res: ServerResponse): void {
  const block = deterministicBytes(64 * 1024);
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const pump = () => {
    while (!res.destroyed && res.write(block));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

describe('fetchAndHashAsset', () => {
  const served = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const seenHeaders: IncomingMessage['headers'][] = [];
  let server: LoopbackServer;
  let options: (overrides?: Partial<AssetFetchOptions>) => AssetFetchOptions;

  beforeAll(async () => {
    server = await startHttpServer((req, res) => {
      seenHeaders.push(req.headers);
      const handler = served.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) handler(req, res);
      else res.writeHead(404).end('no such asset');
    });
    options = (overrides = {}) => testFetchOptions({ allowHosts: [`127.0.0.1:${server.port}`], ...overrides });
  });
  afterAll(() => server.close());

  describe('happy path', () => {
    const content = deterministicBytes(3 * 1024 * 1024 + 17);
    beforeAll(() => {
      served.set('/plugin.zip', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': content.length });
        streamSlices(res, content);
      });
    });

    it('streams, sizes and hashes the asset, passing the content type through', async () => {
      const fetched = await fetchAndHashAsset(server.url('/plugin.zip?v=1'), options({ budgetBytes: 8 * 1024 * 1024 }));
      expect(fetched).toEqual({
        url: server.url('/plugin.zip?v=1'),
        finalUrl: server.url('/plugin.zip?v=1'),
        size: content.length,
        sha256: sha256(content),
        hashed: true,
        contentType: 'application/zip',
      });
    });

    it('asks for the bytes as stored, saying who is asking', async () => {
      await fetchAndHashAsset(server.url('/plugin.zip'), options());
      expect(seenHeaders.at(-1)).toMatchObject({
        'accept-encoding': 'identity',
        'user-agent': USER_AGENT,
        host: `127.0.0.1:${server.port}`,
      });
    });
  });

  describe('hash budget, judged by streamed bytes', () => {
    const budget = 256 * 1024;
    beforeAll(() => {
      served.set('/at-budget', (_req, res) => streamPattern(res, budget));
      served.set('/over-budget', (_req, res) => streamPattern(res, budget + 1));
    });

    it('hashes an asset of exactly the budget', async () => {
      const fetched = await fetchAndHashAsset(server.url('/at-budget'), options({ budgetBytes: budget }));
      expect(fetched).toMatchObject({ size: budget, hashed: true, sha256: sha256(patternBytes(budget)) });
    });

    it('sizes but does not hash an asset one byte over', async () => {
      const fetched = await fetchAndHashAsset(server.url('/over-budget'), options({ budgetBytes: budget }));
      expect(fetched).toMatchObject({ size: budget + 1, hashed: false, sha256: null });
    });
  });

  describe('lying Content-Length (raw servers)', () => {
    let liar: LoopbackServer;
    afterEach(() => liar.close());
    const respond = (head: string, body: Buffer) => (socket: Socket) =>
      socket.once('data', () => {
        socket.write(head);
        socket.end(body);
      });

    // Decision: the body is what HTTP framing says. Bytes after the declared length are not part
    // of the message (curl and browsers stop there too), so the asset is the first 10 bytes.
    it('declares 10 bytes and sends 1 MiB: the asset is the 10 declared bytes', async () => {
      const body = deterministicBytes(1024 * 1024);
      liar = await startRawServer(respond('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', body));
      const fetched = await fetchAndHashAsset(liar.url('/a'), options({ allowHosts: [`127.0.0.1:${liar.port}`], budgetBytes: 5 }));
      expect(fetched).toMatchObject({ size: 10, hashed: false, sha256: null });
      const hashedToo = await fetchAndHashAsset(liar.url('/a'), options({ allowHosts: [`127.0.0.1:${liar.port}`], budgetBytes: 10 }));
      expect(hashedToo).toMatchObject({ size: 10, hashed: true, sha256: sha256(body.subarray(0, 10)) });
    });

    // Decision: a body cut short of its declared length is a failed fetch, not a 10-byte asset.
    it('declares 1 GiB and sends 10 bytes then closes: a network failure naming the bytes seen', async () => {
      liar = await startRawServer(respond('HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n', deterministicBytes(10)));
      const error = await failure(fetchAndHashAsset(liar.url('/a'), options({ allowHosts: [`127.0.0.1:${liar.port}`], budgetBytes: 1 })));
      expect(error.reason).toBe('network');
      expect(error.message).toBe('connection to 127.0.0.1 closed after 10 bytes, before the response was complete');
    });

    it('a chunked body cut off before its last chunk is a network failure too', async () => {
      liar = await startRawServer(respond('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n', Buffer.from('0123456789\r\n')));
      const error = await failure(fetchAndHashAsset(liar.url('/a'), options({ allowHosts: [`127.0.0.1:${liar.port}`] })));
      expect(error.reason).toBe('network');
    });

    it('a body delimited by the connection closing is whole when it closes', async () => {
      liar = await startRawServer(respond('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n', deterministicBytes(1000)));
      const fetched = await fetchAndHashAsset(liar.url('/a'), options({ allowHosts: [`127.0.0.1:${liar.port}`] }));
      expect(fetched).toMatchObject({ size: 1000, sha256: sha256(deterministicBytes(1000)), contentType: 'application/octet-stream' });
    });
  });

  describe('endless and silent servers', () => {
    let connectionClosed: Promise<void>;
    beforeAll(() => {
      served.set('/forever', (req, res) => {
        connectionClosed = new Promise((resolve) => req.socket.once('close', () => resolve()));
        streamForever(res);
      });
      served.set('/stall-mid-body', (_req, res) => {
        res.writeHead(200, { 'content-length': 100 });
        res.write(deterministicBytes(10));
      });
    });

    it('stops an endless body at maxBytes with too-large and closes the connection', async () => {
      const error = await failure(fetchAndHashAsset(server.url('/forever'), options({ maxBytes: 2 * 1024 * 1024 })));
      expect(error.reason).toBe('too-large');
      expect(error.message).toBe('response from 127.0.0.1 is larger than the 2097152-byte limit');
      await connectionClosed;
    });

    it('stops an endless body at the total deadline with timeout and closes the connection', async () => {
      const error = await failure(
        fetchAndHashAsset(server.url('/forever'), options({ totalTimeoutMs: 300, maxBytes: Number.MAX_SAFE_INTEGER })),
      );
      expect(error.reason).toBe('timeout');
      expect(error.message).toBe('fetch from 127.0.0.1 did not finish within 300 ms');
      await connectionClosed;
    });

    it('times out a server that accepts and never answers', async () => {
      const silent = await startRawServer(() => undefined);
      try {
        const started = Date.now();
        const error = await failure(
          fetchAndHashAsset(silent.url('/a'), options({ allowHosts: [`127.0.0.1:${silent.port}`], idleTimeoutMs: 200 })),
        );
        expect(error.reason).toBe('timeout');
        expect(error.message).toBe('timed out after 200 ms without data from 127.0.0.1');
        expect(Date.now() - started).toBeGreaterThanOrEqual(190);
        await silent.allClosed();
      } finally {
        await silent.close();
      }
    });

    it('lets a slow body run longer than the idle timeout as long as data keeps coming', async () => {
      // 12 bytes 100 ms apart: 1.2 s in all against a 1 s idle timeout. The gaps are a tenth of the
      // timeout, so a busy machine (CI's, with two Jest workers) does not stretch one past it.
      served.set('/trickle', (_req, res) => {
        res.writeHead(200, { 'content-length': 12 });
        let sent = 0;
        const tick = setInterval(() => {
          res.write('x');
          if (++sent === 12) {
            clearInterval(tick);
            res.end();
          }
        }, 100);
        res.on('close', () => clearInterval(tick));
      });
      const fetched = await fetchAndHashAsset(server.url('/trickle'), options({ idleTimeoutMs: 1_000 }));
      expect(fetched.size).toBe(12);
    });

    it('times out a body that stalls part-way', async () => {
      const error = await failure(fetchAndHashAsset(server.url('/stall-mid-body'), options({ idleTimeoutMs: 200 })));
      expect(error.reason).toBe('timeout');
      expect(error.message).toMatch(/without data/);
    });

    it('times out connecting, on the injected clock', async () => {
      const connectTimeoutMs = 4321;
      // Fires the connect timer before any I/O can happen: connecting is slower than a microtask.
      const timers = {
        ...systemTimers,
        setTimeout: (callback: () => void, ms: number) =>
          ms === connectTimeoutMs ? queueMicrotask(callback) : systemTimers.setTimeout(callback, ms),
      };
      const error = await failure(fetchAndHashAsset(server.url('/any'), options({ connectTimeoutMs, timers })));
      expect(error.reason).toBe('timeout');
      expect(error.message).toBe('connecting to 127.0.0.1 timed out after 4321 ms');
    });
  });

  describe('status, cancellation, bad input', () => {
    it('reports a 404 with its status', async () => {
      const error = await failure(fetchAndHashAsset(server.url('/missing.zip'), options()));
      expect(error).toMatchObject({ reason: 'status', status: 404, message: 'HTTP 404 from 127.0.0.1', url: server.url('/missing.zip') });
      expect(error.message).not.toMatch(/\n|\bat\b/);
    });

    it('treats a redirect without Location as a final non-2xx status', async () => {
      served.set('/no-location', (_req, res) => res.writeHead(302).end());
      const error = await failure(fetchAndHashAsset(server.url('/no-location'), options()));
      expect(error).toMatchObject({ reason: 'status', status: 302 });
    });

    it('reports a refused connection without Node internals', async () => {
      const closed = await startRawServer(() => undefined);
      await closed.close();
      const error = await failure(fetchAndHashAsset(closed.url('/a'), options({ allowHosts: [`127.0.0.1:${closed.port}`] })));
      expect(error).toMatchObject({ reason: 'network', message: 'connection to 127.0.0.1 failed (ECONNREFUSED)' });
    });

    it('stops when the caller aborts', async () => {
      const controller = new AbortController();
      const pending = fetchAndHashAsset(server.url('/forever'), options({ signal: controller.signal, maxBytes: Number.MAX_SAFE_INTEGER }));
      setTimeout(() => controller.abort(), 50);
      expect(await failure(pending)).toMatchObject({ reason: 'aborted', message: 'fetch from 127.0.0.1 was cancelled' });
    });

    it.each(['not a url', '/relative/path', 'https://'])('rejects %j as a bad URL', async (url) => {
      expect(await failure(fetchAndHashAsset(url, options()))).toMatchObject({ reason: 'bad-url' });
    });
  });

  describe('fetchText', () => {
    it('returns the body as text through the same policy', async () => {
      served.set('/README.md', (_req, res) => res.writeHead(200, { 'content-type': 'text/markdown' }).end('\uFEFF# Hello ✓\n'));
      const fetched = await fetchText(server.url('/README.md'), options({ maxBytes: 1024 }));
      expect(fetched).toEqual({
        url: server.url('/README.md'),
        finalUrl: server.url('/README.md'),
        contentType: 'text/markdown',
        text: '# Hello ✓\n',
      });
    });

    it('fails too-large past maxBytes instead of buffering on', async () => {
      served.set('/big.md', (_req, res) => streamPattern(res, 4096));
      expect(await failure(fetchText(server.url('/big.md'), options({ maxBytes: 1000 })))).toMatchObject({ reason: 'too-large' });
    });

    it('refuses what assets refuse', async () => {
      expect(await failure(fetchText('https://127.0.0.1/README.md', testFetchOptions({ maxBytes: 1000 })))).toMatchObject({
        reason: 'refused-address',
      });
    });
  });
});

function streamSlices(res: ServerResponse, content: Buffer): void {
  let offset = 0;
  const pump = () => {
    while (offset < content.length) {
      const slice = content.subarray(offset, offset + 100_003);
      offset += slice.length;
      if (!res.write(slice)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}
