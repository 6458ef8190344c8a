import type { ServerResponse } from 'node:http';
import { fetchBytes } from './fetch-bytes';
import { deterministicBytes, type LoopbackServer, startHttpServer, testFetchOptions } from './testing/loopback-servers';

const BODY = deterministicBytes(256 * 1024);

/** Writes BODY in 16 KiB pieces, each after the last has drained, so it arrives as many chunks. */
function sendInPieces(res: ServerResponse, declare: boolean): void {
  res.writeHead(200, { 'content-type': 'image/png', ...(declare ? { 'content-length': String(BODY.length) } : {}) });
  let at = 0;
  const next = () => {
    if (at >= BODY.length) return res.end();
    const piece = BODY.subarray(at, (at += 16 * 1024));
    if (res.write(piece)) setImmediate(next);
    else res.once('drain', next);
  };
  next();
}

describe('fetchBytes', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startHttpServer((req, res) => sendInPieces(res, req.url === '/declared'));
  });
  afterAll(() => server.close());

  const options = () => ({ ...testFetchOptions({ allowHosts: [`127.0.0.1:${server.port}`] }), maxBytes: 1024 * 1024 });

  it('writes a body of declared length into one buffer as it arrives: no chunk is kept once it has been seen', async () => {
    const seen: Buffer[] = [];
    const fetched = await fetchBytes(server.url('/declared'), options(), (chunk) => {
      // Spoils every chunk seen before this one: a fetch that kept chunks to join at the end returns spoiled bytes.
      for (const earlier of seen) earlier.fill(0);
      seen.push(chunk);
    });
    expect(seen.length).toBeGreaterThan(2);
    expect(fetched.bytes.equals(BODY)).toBe(true);
    expect(fetched.bytes.buffer.byteLength).toBe(BODY.length);
  });

  it('joins a body of undeclared length, and one declared past maxBytes still fails too-large', async () => {
    const fetched = await fetchBytes(server.url('/undeclared'), options());
    expect(fetched.bytes.equals(BODY)).toBe(true);
    await expect(fetchBytes(server.url('/declared'), { ...options(), maxBytes: 1024 })).rejects.toMatchObject({ reason: 'too-large' });
  });
});
