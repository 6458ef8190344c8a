import type { IncomingMessage, ServerResponse } from 'node:http';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { startHttpServer, type LoopbackServer } from '../../common/fetch/testing/loopback-servers';
import type { AppConfig } from '../../config/config.types';
import { HEAD_TTL_MS, UpstreamLog } from './upstream-log';
import { upstreamLogTransport } from './upstream-log-transport';

class ManualClock extends Clock {
  ms = Date.UTC(2026, 0, 1);
  now(): Date {
    return new Date(this.ms);
  }
}

const NOTE = 'upstream.example/log\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— upstream.example/log abcd\n';

/**
 * UpstreamLog over the real SSRF-safe transport, against an upstream on loopback that answers
 * what each test sets and counts what reaches it.
 */
describe('UpstreamLog', () => {
  let upstream: LoopbackServer;
  let answer: (req: IncomingMessage, res: ServerResponse) => void;
  const paths: string[] = [];
  const clock = new ManualClock();
  let log: UpstreamLog;

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => error as DomainError,
    );

  beforeAll(async () => {
    upstream = await startHttpServer((req, res) => {
      paths.push(req.url ?? '');
      answer(req, res);
    });
    const config = { mirrorOf: upstream.url('').replace(/\/$/, '') } as AppConfig;
    log = new UpstreamLog(config, upstreamLogTransport(['127.0.0.1'], 400), clock);
  });
  afterAll(() => upstream?.close());
  beforeEach(() => {
    paths.length = 0;
    clock.ms += 60_000;
  });

  it("serves upstream's head as upstream signed it, read once per few seconds", async () => {
    answer = (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(NOTE);
    expect(await log.checkpoint()).toBe(NOTE);
    expect(await Promise.all([log.checkpoint(), log.checkpoint()])).toEqual([NOTE, NOTE]);
    expect(paths).toEqual(['/api/log/head']);
    clock.ms += HEAD_TTL_MS;
    await log.checkpoint();
    expect(paths).toEqual(['/api/log/head', '/api/log/head']);
  });

  it('reads the head anew after forgetHead, even while an older read is under way', async () => {
    const held: ServerResponse[] = [];
    answer = (_req, res) => void held.push(res);
    const reached = async (count: number) => {
      for (const until = Date.now() + 2000; held.length < count && Date.now() < until;)
        await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const older = log.checkpoint();
    await reached(1);
    // The follower copied a release: a head read that started before must not stand for the next.
    log.forgetHead();
    const newer = log.checkpoint();
    await reached(2);
    const grown = NOTE.replace('\n3\n', '\n4\n');
    held.forEach((res, i) => res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(i === 0 ? NOTE : grown));
    expect([await older, await newer]).toEqual([NOTE, grown]);
    expect(await log.checkpoint()).toBe(grown);
    expect(paths).toEqual(['/api/log/head', '/api/log/head']);
  });

  it('keeps full tiles (immutable), reads a partial tile every time', async () => {
    answer = (req, res) =>
      void res
        .writeHead(200, { 'Content-Type': 'application/octet-stream' })
        .end(Buffer.alloc(req.url!.endsWith('.p/5') ? 5 * 32 : 8192, 7));
    for (let i = 0; i < 3; i++) {
      const full = await log.tile('tile/0/x001/002', { level: 0, width: null });
      expect(full.body).toEqual(Buffer.alloc(8192, 7));
      expect(full.headers['Cache-Control']).toContain('immutable');
      expect((await log.tile('tile/0/003.p/5', { level: 0, width: 5 })).headers['Cache-Control']).toBe('public, max-age=60');
    }
    expect(paths).toEqual(['/log/tile/0/x001/002', '/log/tile/0/003.p/5', '/log/tile/0/003.p/5', '/log/tile/0/003.p/5']);
  });

  it('reads a path once for every request asking it while the read is under way, and again after', async () => {
    const held: ServerResponse[] = [];
    answer = (_req, res) => void held.push(res);
    const proof = { index: 1, size: 4, leaf_hash: 'AA==', proof: [], entry: 'AA==' };
    const asked = [
      log.inclusion(1, 4),
      log.inclusion(1, 4),
      log.inclusion(2, 4),
      log.tile('tile/1/000.p/2', { level: 1, width: 2 }),
      log.tile('tile/1/000.p/2', { level: 1, width: 2 }),
    ];
    while (held.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    expect([...paths].sort()).toEqual([
      '/api/log/proof/inclusion?index=1&size=4',
      '/api/log/proof/inclusion?index=2&size=4',
      '/log/tile/1/000.p/2',
    ]);
    for (const res of held) {
      if (res.req.url!.startsWith('/log/')) res.writeHead(200).end(Buffer.alloc(64, 3));
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(proof));
    }
    const [first, second, , tile, sameTile] = (await Promise.all(asked)) as [object, object, object, { body: Buffer }, { body: Buffer }];
    expect(first).toEqual(proof);
    // Each request has its own object to answer with.
    expect(second).toEqual(proof);
    expect(second).not.toBe(first);
    expect(sameTile.body).toEqual(tile.body);
    // A failure is shared the same way, and not kept.
    answer = (_req, res) => void setTimeout(() => res.writeHead(503).end('down'), 20);
    const failed = await Promise.all([failure(log.entry(7)), failure(log.entry(7))]);
    expect(failed.map((error) => error.code)).toEqual(['upstream-log-failed', 'upstream-log-failed']);
    answer = (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"index":7}');
    expect(await log.entry(7)).toEqual({ index: 7 });
    expect(paths.filter((path) => path === '/api/log/entries/7')).toHaveLength(2);
  });

  it("answers 502 and keeps nothing when upstream's answer is not the tile's shape or not a 200", async () => {
    const bundle = (count: number) => Buffer.concat(Array.from({ length: count }, () => Buffer.from([0, 2, 123, 125])));
    const cases: [string, { level: number | 'entries'; width: number | null }, (res: import('node:http').ServerResponse) => void][] = [
      ['tile/0/x002/001', { level: 0, width: null }, (res) => res.writeHead(200).end('<html>proxy error</html>')],
      ['tile/1/004.p/9', { level: 1, width: 9 }, (res) => res.writeHead(200).end(Buffer.alloc(8 * 32))],
      ['tile/entries/005', { level: 'entries', width: null }, (res) => res.writeHead(200).end(bundle(255))],
      ['tile/entries/006.p/2', { level: 'entries', width: 2 }, (res) => res.writeHead(200).end(Buffer.from([0, 9, 1]))],
      ['tile/0/x002/002', { level: 0, width: null }, (res) => res.writeHead(206).end(Buffer.alloc(8192))],
    ];
    for (const [path, tile, reply] of cases) {
      answer = (_req, res) => reply(res);
      expect(await failure(log.tile(path, tile))).toMatchObject({ kind: 'upstream-failed', code: 'upstream-log-failed' });
    }
    // Asked again once upstream answers properly: nothing bad was kept.
    answer = (_req, res) => void res.writeHead(200).end(Buffer.alloc(8192, 1));
    expect((await log.tile('tile/0/x002/001', { level: 0, width: null })).body).toEqual(Buffer.alloc(8192, 1));
    answer = (_req, res) => void res.writeHead(200).end(bundle(256));
    expect((await log.tile('tile/entries/005', { level: 'entries', width: null })).body).toEqual(bundle(256));
  });

  it("passes upstream's 400 on with its code, detail and field errors", async () => {
    answer = (_req, res) =>
      void res.writeHead(400, { 'Content-Type': 'application/problem+json' }).end(
        JSON.stringify({
          type: 'https://up.example/problems/validation-failed',
          title: 'Bad Request',
          status: 400,
          detail: 'index is not in the tree',
          errors: [{ path: '/index', message: 'index: must be less than the tree size, 3' }],
        }),
      );
    const error = await failure(log.inclusion(9));
    expect(paths).toEqual(['/api/log/proof/inclusion?index=9']);
    expect(error).toMatchObject({
      kind: 'bad-request',
      code: 'validation-failed',
      detail: 'index is not in the tree',
      errors: [{ path: '/index', message: 'index: must be less than the tree size, 3' }],
      extensions: { upstream: expect.any(String) },
    });
  });

  it('answers 502 for a server error, a refusal of the mirror itself, an oversized or a non-JSON answer; a head that failed is read again', async () => {
    answer = (_req, res) => void res.writeHead(503).end('down');
    expect(await failure(log.checkpoint())).toMatchObject({
      kind: 'upstream-failed',
      code: 'upstream-log-failed',
      detail: expect.stringContaining('HTTP 503'),
    });
    answer = (_req, res) =>
      void res.writeHead(403, { 'Content-Type': 'application/problem+json' }).end('{"type":"x/forbidden","detail":"no"}');
    expect(await failure(log.key())).toMatchObject({ kind: 'upstream-failed', detail: expect.stringContaining('HTTP 403') });
    answer = (_req, res) => void res.writeHead(200).end(Buffer.alloc(17 * 1024, 65));
    expect(await failure(log.checkpoint())).toMatchObject({ kind: 'upstream-failed', detail: expect.stringContaining('larger than') });
    answer = (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end('[1,2]');
    expect(await failure(log.entry(1))).toMatchObject({ kind: 'upstream-failed', detail: expect.stringContaining('not a JSON object') });
    expect(paths.filter((path) => path === '/api/log/head')).toHaveLength(2);
  });

  it('answers 504 when upstream does not answer in time', async () => {
    answer = () => undefined;
    const started = Date.now();
    expect(await failure(log.consistency(1, 2))).toMatchObject({ kind: 'upstream-timeout', code: 'upstream-log-timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 502 when nothing listens upstream', async () => {
    const closed = await startHttpServer(() => undefined);
    const url = closed.url('').replace(/\/$/, '');
    await closed.close();
    const gone = new UpstreamLog({ mirrorOf: url } as AppConfig, upstreamLogTransport(['127.0.0.1'], 400), clock);
    const error = await failure(gone.tile('tile/entries/000.p/3', { level: 'entries', width: 3 }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'upstream-failed', detail: expect.stringContaining('ECONNREFUSED') });
  });
});
