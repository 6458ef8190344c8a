/**
 * A mirror serves its upstream's transparency log read-only (docs/mirror.md): an upstream registry
 * on loopback, a small front on loopback that passes everything on (or, for the log's routes,
 * fails or falls silent when a test says so, and counts them), and a mirror reading upstream
 * through it; each registry on its own database. Covered: upstream's bytes passed on (nothing
 * re-signed), copies naming upstream's entries (re-signings too), refusals passed on, 502 and 504.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { base64urlDecode, sha256Hex, verifyRelease, type KeySet, type ReleaseRecord } from '../../src/lib/integrity';
import { encodeLogEntry, leafHash, openNote, parseCheckpoint, verifyConsistency, verifyInclusion } from '../../src/lib/transparency';
import { ReleaseResigner } from '../../src/trust/integrity/release-resigner';
import { eventually } from '../support/eventually';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

type Mode = 'pass' | 'down' | 'silent';
const LOG_PATH = /^\/(api\/log\/|log\/)/;
const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

describe("a mirror serves its upstream's transparency log", () => {
  let up: PublishWorld;
  let mirror: TestApp;
  let front: Server;
  let frontUrl: string;
  let token: string;
  let mode: Mode = 'pass';
  /** The log reads that reached upstream through the front. */
  const logReads: string[] = [];

  const publish = (slug: string, version: string) =>
    up
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: `${slug}.zip`, url: up.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 500 }) }],
        repoUrl: `${up.forge.url}/acme/${slug}`,
      })
      .expect(201);
  const onMirror = (slug: string, version: string) =>
    eventually(async () => {
      const res = await request(mirror.url).get(`/api/plugins/${slug}/releases/${version}`);
      return res.status === 200 ? (res.body as ReleaseRecord & { log_index: number | null }) : null;
    }, `${slug}@${version} on the mirror`);
  const bytes = (url: string, path: string) =>
    request(url)
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  /** The head the mirror serves, opened with the key set the mirror serves (upstream's). */
  async function mirrorHead() {
    const keys = (await request(mirror.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
    const note = (await request(mirror.url).get('/api/log/head').expect(200)).text;
    const origin = note.slice(0, note.indexOf('\n'));
    const opened = openNote(
      note,
      keys.keys.map((jwk) => ({ name: origin, publicKey: base64urlDecode(jwk.x)! })),
    );
    return { note, ...parseCheckpoint(opened.text) };
  }

  beforeAll(async () => {
    up = await publishWorld();
    token = (await up.tokenFor('log-author', ['publish:*'])).token;
    front = createServer((req, res) => {
      const path = req.url ?? '/';
      if (LOG_PATH.test(path)) {
        logReads.push(path);
        if (mode === 'silent') return;
        if (mode === 'down') return void res.writeHead(503, { 'Content-Type': 'text/plain' }).end('upstream is down');
      }
      void (async () => {
        const answer = await fetch(`${up.app.url}${path}`, { redirect: 'manual', headers: { accept: req.headers.accept ?? '*/*' } });
        const location = answer.headers.get('location');
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
          ...(location ? { location } : {}),
        });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch((error: Error) => res.writeHead(500).end(error.message));
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    mirror = await startTestApp({
      MIRROR_OF: frontUrl,
      MIRROR_POLL_INTERVAL_MS: '200',
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      MIRROR_LOG_TIMEOUT_MS: '600',
    });
  });
  afterEach(() => {
    mode = 'pass';
    logReads.length = 0;
  });
  afterAll(async () => {
    await mirror?.close();
    front?.closeAllConnections();
    await new Promise((resolve) => front?.close(resolve));
    await up?.close();
  });

  it("serves upstream's signed head, proofs, entries and tiles byte for byte, and its releases name upstream's entries", async () => {
    await publish('first', '1.0.0');
    await publish('second', '1.0.0');
    const copied = await onMirror('second', '1.0.0');
    const original = (await request(up.app.url).get('/api/plugins/second/releases/1.0.0').expect(200)).body as ReleaseRecord & {
      log_index: number;
    };
    expect(copied.log_index).toBe(original.log_index);
    expect(copied.log_index).toEqual(expect.any(Number));

    // Signed by upstream, not re-signed: the same note, opened with the key set the mirror serves.
    const head = await mirrorHead();
    expect(head.note).toBe((await request(up.app.url).get('/api/log/head').expect(200)).text);
    expect(head.origin).toBe(`${new URL(up.app.url).host}/log`);
    expect((await request(mirror.url).get('/log/checkpoint').expect(200)).text).toBe(head.note);
    expect((await request(mirror.url).get('/api/log/key').expect(200)).body).toEqual(
      (await request(up.app.url).get('/api/log/key').expect(200)).body,
    );

    // The copied release is in upstream's log, proven through the mirror.
    const keys = (await request(mirror.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
    const verdict = await verifyRelease({ release: copied, keys, expected: { slug: 'second', version: '1.0.0' } });
    if (!verdict.ok) throw new Error(verdict.message);
    const leaf = leafHash(
      encodeLogEntry({ type: 'release', slug: 'second', version: '1.0.0', kid: verdict.kid, jws_sha256: sha256Hex(copied.integrity!.jws) }),
    );
    const inclusion = (await request(mirror.url).get(`/api/log/proof/inclusion?index=${copied.log_index}&size=${head.size}`).expect(200))
      .body;
    expect(() => verifyInclusion(copied.log_index!, head.size, leaf, inclusion.proof.map(b64), head.rootHash)).not.toThrow();

    // Upstream grows: the mirror's next head (read again after a few seconds) is consistent with the first.
    await publish('third', '1.0.0');
    await onMirror('third', '1.0.0');
    const next = await eventually(async () => {
      const later = await mirrorHead();
      return later.size > head.size ? later : null;
    }, 'a larger head through the mirror');
    const consistency = (await request(mirror.url).get(`/api/log/proof/consistency?from=${head.size}&to=${next.size}`).expect(200)).body;
    expect(() => verifyConsistency(head.size, next.size, consistency.proof.map(b64), head.rootHash, next.rootHash)).not.toThrow();

    // Entries and tiles: upstream's bytes, with the headers the registry gives its own.
    expect((await request(mirror.url).get('/api/log/entries/1').expect(200)).body).toEqual(
      (await request(up.app.url).get('/api/log/entries/1').expect(200)).body,
    );
    for (const path of [`/log/tile/entries/000.p/${next.size}`, `/log/tile/0/000.p/${next.size}`]) {
      const [mine, theirs] = await Promise.all([bytes(mirror.url, path).expect(200), bytes(up.app.url, path).expect(200)]);
      expect(Buffer.compare(mine.body as Buffer, theirs.body as Buffer)).toBe(0);
      expect(mine.headers['cache-control']).toBe('public, max-age=60');
      expect(mine.headers['content-type']).toBe('application/octet-stream');
    }
  });

  it("passes upstream's refusals on with their status and problem, and refuses a non-tile path itself", async () => {
    const pastHead = await request(mirror.url).get('/api/log/proof/inclusion?index=0&size=100000').expect(400);
    expect(pastHead.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(pastHead.body).toMatchObject({
      type: `${mirror.url}/problems/validation-failed`,
      status: 400,
      detail: "size is past the log's head",
      errors: [{ path: '/size', message: expect.stringContaining('must be at most the head') }],
      upstream: frontUrl,
    });
    // One read of upstream per request: a mirror's proofs are not tried on the catalogue lane first.
    expect(logReads).toEqual(['/api/log/proof/inclusion?index=0&size=100000']);
    expect((await request(mirror.url).get('/api/log/entries/100000').expect(404)).body).toMatchObject({
      status: 404,
      detail: expect.stringContaining('no entry 100000'),
    });
    await request(mirror.url).get('/log/tile/0/001').expect(404);
    logReads.length = 0;
    // The mirror's own check of the request: upstream is not asked.
    await request(mirror.url).get('/log/tile/0/1').expect(400);
    await request(mirror.url).get('/api/log/proof/consistency?from=x&to=1').expect(400);
    expect(logReads).toEqual([]);
  });

  it("takes upstream's re-signing and its new entry when upstream retires the key that signed a copied release", async () => {
    const before = await onMirror('first', '1.0.0');
    const upAdmin = { Authorization: `Bearer ${(await userWithSession(up.app, 'log-root', 'admin')).jwt}` };
    // The second rotation displaces the first key, which signs the copied releases: drained at once, it retires.
    await request(up.app.url).post('/api/admin/keys/rotate').set(upAdmin).expect(200);
    await request(up.app.url).post('/api/admin/keys/rotate').set(upAdmin).expect(200);
    await up.app.app.get(ReleaseResigner).drain({ batchSize: 10, graceMs: 0, via: 'cli' });
    const resigned = (await request(up.app.url).get('/api/plugins/first/releases/1.0.0').expect(200)).body as ReleaseRecord & {
      log_index: number;
    };
    expect(resigned.log_index).toBeGreaterThan(before.log_index!);
    const copied = await eventually(async () => {
      const release = await onMirror('first', '1.0.0');
      return release.log_index === resigned.log_index ? release : null;
    }, "the mirror's copy re-signed");
    expect(copied.integrity!.jws).toBe(resigned.integrity!.jws);

    const head = await eventually(async () => {
      const current = await mirrorHead();
      return current.size > resigned.log_index ? current : null;
    }, 'a head holding the re-signing');
    const keys = (await request(mirror.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
    const verdict = await verifyRelease({ release: copied, keys, expected: { slug: 'first', version: '1.0.0' } });
    if (!verdict.ok) throw new Error(verdict.message);
    const leaf = leafHash(
      encodeLogEntry({ type: 'resign', slug: 'first', version: '1.0.0', kid: verdict.kid, jws_sha256: sha256Hex(copied.integrity!.jws) }),
    );
    const inclusion = (await request(mirror.url).get(`/api/log/proof/inclusion?index=${copied.log_index}&size=${head.size}`).expect(200))
      .body;
    expect(() => verifyInclusion(copied.log_index!, head.size, leaf, inclusion.proof.map(b64), head.rootHash)).not.toThrow();
  });

  it('answers 502 problem+json when upstream fails, and 504 when it does not answer in time', async () => {
    mode = 'down';
    for (const path of ['/api/log/proof/consistency?from=1&to=2', '/log/tile/entries/000.p/1', '/api/log/key']) {
      const res = await request(mirror.url).get(path).expect(502);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        type: `${mirror.url}/problems/upstream-log-failed`,
        status: 502,
        detail: expect.stringContaining('HTTP 503'),
        upstream: frontUrl,
      });
    }
    mode = 'silent';
    const started = Date.now();
    const res = await request(mirror.url).get('/api/log/proof/inclusion?index=0&size=1').expect(504);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.body).toMatchObject({ type: `${mirror.url}/problems/upstream-log-timeout`, status: 504, upstream: frontUrl });
    expect(logReads.filter((path) => path.startsWith('/api/log/proof/inclusion'))).toHaveLength(1);
  });
});
