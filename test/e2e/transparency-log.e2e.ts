/**
 * The transparency log over HTTP (docs/transparency-log.md): publishes, a yank, key
 * rotations, re-signings and a retirement are appended in order; every inclusion and consistency
 * proof the server gives verifies with the framework-free library against a root computed here from
 * RFC 9162's definition; heads open with the served key set; tiles equal the leaf hashes; two
 * publishes at once get consecutive indexes; a failing append fails its publish.
 */
import request from 'supertest';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { ReleaseResigner } from '../../src/trust/integrity/release-resigner';
import { base64urlDecode, canonicalJson, sha256Hex, type KeySet } from '../../src/lib/integrity';
import {
  decodeEntryBundle,
  encodeLogEntry,
  leafHash,
  noteKeyHash,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  tilePath,
  verifyConsistency,
  verifyInclusion,
  type Hash,
  type LogEntry,
} from '../../src/lib/transparency';
import { TransparencyLog } from '../../src/trust/transparency-log/transparency-log';
import { TransparencyService } from '../../src/trust/transparency/transparency.service';
import type { UpperTreeLevels } from '../../src/trust/transparency/upper-tree-levels';
import { eventually } from '../support/eventually';
import { merkleRoot } from '../support/merkle-root';
import { RotationWorld } from '../support/rotation-world';

const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('transparency log', () => {
  let world: RotationWorld;
  let origin: string;
  /** Heads read along the way, with the key set served when each was read. */
  const heads: { note: string; keys: KeySet }[] = [];

  const get = (path: string) => request(world.app.url).get(path);
  const keysHash = (keys: KeySet) => sha256Hex(canonicalJson(keys));
  const verifiersOf = (keys: KeySet) => keys.keys.map((jwk) => ({ name: origin, publicKey: base64urlDecode(jwk.x)! }));

  async function head(): Promise<{ size: number; rootHash: Hash }> {
    const keys = await world.keySet();
    const answer = await get('/api/log/head').expect(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    heads.push({ note: answer.text, keys });
    const { text } = openNote(answer.text, verifiersOf(keys));
    const checkpoint = parseCheckpoint(text);
    return { size: checkpoint.size, rootHash: checkpoint.rootHash };
  }

  async function entries(from = 0): Promise<{ entry: LogEntry; leafHash: Hash }[]> {
    const { size } = await head();
    const all = [];
    for (let index = from; index < size; index++) {
      const answer = await get(`/api/log/entries/${index}`).expect(200);
      expect(answer.body.index).toBe(index);
      all.push({ entry: answer.body.entry as LogEntry, leafHash: b64(answer.body.leaf_hash) });
    }
    return all;
  }

  async function leafHashes(): Promise<Hash[]> {
    return (await entries()).map((entry) => entry.leafHash);
  }

  const logIndexOf = async (slug: string, version: string): Promise<number> =>
    (await get(`/api/plugins/${slug}/releases/${version}`).expect(200)).body.log_index as number;

  beforeAll(async () => {
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    // The test re-signs when it chooses to.
    await world.app.app.get(ReleaseResignWorker).stop();
    origin = `${new URL(world.app.url).host}/log`;
  });
  afterAll(async () => {
    await world?.close();
  });

  it('appends every publish, yank, key-set change and re-signing, in order, and releases name their entry', async () => {
    // The first key, made at start, is the log's first entry.
    const start = await entries();
    expect(start).toEqual([{ entry: { type: 'keys', keys_sha256: keysHash(await world.keySet()) }, leafHash: expect.any(Uint8Array) }]);
    const [k1] = await world.servedKids();

    const jws = new Map<string, string>();
    for (const slug of ['alpha', 'beta', 'gamma']) {
      await world.publish(slug, '1.0.0');
      jws.set(slug, (await world.release({ slug, version: '1.0.0' })).integrity!.jws);
    }
    await world.yank('beta', '1.0.0');
    await world.admin('post', '/api/admin/keys/rotate').expect(200);
    const afterFirst = await world.keySet();
    // The second rotation displaces K1, which signs three releases: it drains.
    await world.admin('post', '/api/admin/keys/rotate').expect(200);
    const afterSecond = await world.keySet();
    const k3 = afterSecond.keys[0]!.kid;
    const drained = await world.app.app.get(ReleaseResigner).drain({ batchSize: 10, graceMs: 0, via: 'cli' });
    expect(drained).toMatchObject({ resigned: 3, failed: 0, drains: [{ state: 'retired', kid: k1 }] });
    const afterRetire = await world.keySet();
    expect(afterRetire.keys.map((key) => key.kid)).not.toContain(k1);

    const logged = (await entries()).map((entry) => entry.entry);
    expect(logged.slice(0, 7)).toEqual([
      start[0]!.entry,
      ...['alpha', 'beta', 'gamma'].map((slug) => ({
        type: 'release',
        slug,
        version: '1.0.0',
        kid: k1,
        jws_sha256: sha256Hex(jws.get(slug)!),
      })),
      { type: 'yank', slug: 'beta', version: '1.0.0' },
      { type: 'keys', keys_sha256: keysHash(afterFirst) },
      { type: 'keys', keys_sha256: keysHash(afterSecond) },
    ]);
    // Re-signed in release-id order (not the test's); each entry hashes the signature served now.
    const resigned = logged.slice(7, 10);
    const served = await Promise.all(['alpha', 'beta', 'gamma'].map((slug) => world.release({ slug, version: '1.0.0' })));
    expect(resigned).toEqual(
      expect.arrayContaining(
        ['alpha', 'beta', 'gamma'].map((slug, i) => ({
          type: 'resign',
          slug,
          version: '1.0.0',
          kid: k3,
          jws_sha256: sha256Hex(served[i]!.integrity!.jws),
        })),
      ),
    );
    expect(logged.slice(10)).toEqual([{ type: 'keys', keys_sha256: keysHash(afterRetire) }]);
    // Each release names the entry of the signature it carries now: its re-signing.
    for (const slug of ['alpha', 'beta', 'gamma']) {
      const logIndex = await logIndexOf(slug, '1.0.0');
      expect(logged[logIndex]).toMatchObject({ type: 'resign', slug });
      // The plugin's release list says the same.
      expect((await get(`/api/plugins/${slug}`).expect(200)).body.releases).toEqual([
        expect.objectContaining({ version: '1.0.0', log_index: logIndex }),
      ]);
    }
  });

  it("signs heads with the registry's key: the note opens with the key set served at the time, and /log/checkpoint is the same note", async () => {
    const current = await head();
    expect(current.size).toBe(11);
    expect(current.rootHash).toEqual(merkleRoot(await leafHashes()));
    // Every head read so far opens with the key set of its time (heads before the rotations with K1).
    for (const read of heads) expect(openNote(read.note, verifiersOf(read.keys)).verifiedBy).toEqual([origin]);
    // A key set the head was not signed with does not open it.
    const stale = heads.find((read) => read.keys.keys[0]!.kid !== heads[heads.length - 1]!.keys.keys[0]!.kid)!;
    expect(() => openNote(heads[heads.length - 1]!.note, verifiersOf({ keys: [stale.keys.keys[0]!] }))).toThrow();

    const checkpoint = await get('/log/checkpoint').expect(200);
    expect(checkpoint.text).toBe(heads[heads.length - 1]!.note);

    const key = await get('/api/log/key').expect(200);
    const keys = await world.keySet();
    expect(key.body.origin).toBe(origin);
    expect(key.body.verifier_keys.map((text: string) => parseVerifierKey(text))).toEqual(
      keys.keys.map((jwk) => ({ name: origin, keyHash: noteKeyHash(origin, base64urlDecode(jwk.x)!), publicKey: base64urlDecode(jwk.x)! })),
    );
  });

  it('gives inclusion proofs for every leaf in every tree size, and consistency proofs between every two sizes, that verify', async () => {
    const leaves = await leafHashes();
    for (let size = 1; size <= leaves.length; size++) {
      const root = merkleRoot(leaves.slice(0, size));
      for (let index = 0; index < size; index++) {
        const proof = (await get(`/api/log/proof/inclusion?index=${index}&size=${size}`).expect(200)).body;
        expect(proof).toMatchObject({ index, size, leaf_hash: Buffer.from(leaves[index]!).toString('base64') });
        expect(leafHash(b64(proof.entry))).toEqual(leaves[index]);
        expect(() => verifyInclusion(index, size, leaves[index]!, proof.proof.map(b64), root)).not.toThrow();
      }
    }
    // Without a size: the current head's.
    const latest = (await get('/api/log/proof/inclusion?index=3').expect(200)).body;
    expect(latest.size).toBe(leaves.length);
    expect(() => verifyInclusion(3, leaves.length, leaves[3]!, latest.proof.map(b64), merkleRoot(leaves))).not.toThrow();

    for (let to = 1; to <= leaves.length; to++) {
      for (let from = 1; from <= to; from++) {
        const proof = (await get(`/api/log/proof/consistency?from=${from}&to=${to}`).expect(200)).body;
        expect(proof).toMatchObject({ from, to });
        expect(() =>
          verifyConsistency(from, to, proof.proof.map(b64), merkleRoot(leaves.slice(0, from)), merkleRoot(leaves.slice(0, to))),
        ).not.toThrow();
      }
    }
    expect((await get(`/api/log/proof/consistency?from=0&to=${leaves.length}`).expect(200)).body.proof).toEqual([]);
  });

  it('serves tiles: full and partial hash tiles and entry bundles byte-equal the leaves, nothing past the head', async () => {
    // Enough entries for a full tile (256) and a partial one after it, appended as a publish does.
    const log = world.app.app.get(TransparencyLog);
    for (let i = 0; i < 260; i++) {
      await world.app.database.dataSource.transaction((manager) =>
        log.append({ type: i % 2 ? 'unyank' : 'yank', slug: 'alpha', version: '1.0.0' }, manager),
      );
    }
    const all = await entries();
    const leaves = all.map((entry) => entry.leafHash);
    expect(leaves.length).toBe(271);
    for (const entry of all) expect(leafHash(encodeLogEntry(entry.entry))).toEqual(entry.leafHash);

    const full = await get(`/log/${tilePath(0, 0)}`).expect(200);
    expect(full.headers['content-type']).toBe('application/octet-stream');
    expect(full.headers['cache-control']).toContain('immutable');
    expect(hex(full.body)).toBe(leaves.slice(0, 256).map(hex).join(''));
    const partial = await get(`/log/${tilePath(0, 1, 15)}`).expect(200);
    expect(partial.headers['cache-control']).not.toContain('immutable');
    expect(hex(partial.body)).toBe(leaves.slice(256).map(hex).join(''));
    const narrower = await get(`/log/${tilePath(0, 1, 4)}`).expect(200);
    expect(hex(narrower.body)).toBe(leaves.slice(256, 260).map(hex).join(''));
    // Level 1 (tree level 8): its first hash is the root of the first 256 leaves.
    expect(hex((await get(`/log/${tilePath(1, 0, 1)}`).expect(200)).body)).toBe(hex(merkleRoot(leaves.slice(0, 256))));

    const bundle = decodeEntryBundle(new Uint8Array((await get(`/log/${tilePath('entries', 0)}`).expect(200)).body));
    expect(bundle.map(leafHash)).toEqual(leaves.slice(0, 256));
    const partialBundle = decodeEntryBundle(new Uint8Array((await get(`/log/${tilePath('entries', 1, 15)}`).expect(200)).body));
    expect(partialBundle.map(leafHash)).toEqual(leaves.slice(256));

    for (const past of [
      tilePath(0, 1),
      tilePath(0, 1, 16),
      tilePath(1, 0, 2),
      tilePath(2, 0, 1),
      tilePath('entries', 1),
      tilePath('entries', 2, 1),
    ]) {
      const answer = await get(`/log/${past}`).expect(404);
      expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    const bad = await get('/log/tile/0/abc').expect(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: '/path' })]);
  });

  it('gives proofs over a log of hundreds of leaves that verify, asked again once their upper nodes are held in process', async () => {
    // 271 leaves by now: subtrees of level 1 and up (2+ leaves) are held in process once the
    // first proof's read started their fill, and the second round is answered with them and the
    // leaf hashes read with each proof's leaf.
    const leaves = await leafHashes();
    expect(leaves.length).toBeGreaterThanOrEqual(256);
    const upper = (world.app.app.get(TransparencyService) as unknown as { upper: UpperTreeLevels }).upper;
    for (const size of [64, 65, 128, 200, 256, leaves.length]) {
      const root = merkleRoot(leaves.slice(0, size));
      for (const round of [1, 2]) {
        if (round === 2) {
          await upper.settled();
          expect(upper.heldNodes).toBeGreaterThanOrEqual(leaves.length - 16);
        }
        for (let index = round - 1; index < size; index += 9) {
          const proof = (await get(`/api/log/proof/inclusion?index=${index}&size=${size}`).expect(200)).body;
          expect(() => verifyInclusion(index, size, leaves[index]!, proof.proof.map(b64), root)).not.toThrow();
        }
        for (let from = round; from <= size; from += 11) {
          const proof = (await get(`/api/log/proof/consistency?from=${from}&to=${size}`).expect(200)).body;
          expect(() => verifyConsistency(from, size, proof.proof.map(b64), merkleRoot(leaves.slice(0, from)), root)).not.toThrow();
        }
      }
    }
  });

  it('gives two publishes at once distinct consecutive indexes and a tree consistent with the one before', async () => {
    const before = await head();
    await Promise.all([world.publish('delta', '1.0.0'), world.publish('epsilon', '1.0.0')]);
    const indexes = [await logIndexOf('delta', '1.0.0'), await logIndexOf('epsilon', '1.0.0')].sort((a, b) => a - b);
    expect(indexes).toEqual([before.size, before.size + 1]);
    const after = await head();
    expect(after.size).toBe(before.size + 2);
    const proof = (await get(`/api/log/proof/consistency?from=${before.size}&to=${after.size}`).expect(200)).body;
    expect(() => verifyConsistency(before.size, after.size, proof.proof.map(b64), before.rootHash, after.rootHash)).not.toThrow();
    const leaves = await leafHashes();
    expect(after.rootHash).toEqual(merkleRoot(leaves));
    for (const index of indexes) {
      const inclusion = (await get(`/api/log/proof/inclusion?index=${index}&size=${after.size}`).expect(200)).body;
      expect(() => verifyInclusion(index, after.size, leaves[index]!, inclusion.proof.map(b64), after.rootHash)).not.toThrow();
    }
  });

  it('fails the publish when its append fails: no release, no publish audit, no leaf', async () => {
    const dataSource = world.app.database.dataSource;
    const { size } = await head();
    // The node the next append must write is already there: its insert violates the primary key.
    await dataSource.query('INSERT INTO "transparency_node" ("level", "index", "hash") VALUES (0, $1, $2)', [
      String(size),
      Buffer.alloc(32),
    ]);
    const failed = await world.publishAnswer('zeta', '1.0.0');
    expect(failed.status).toBe(500);
    expect(failed.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(failed.body).toMatchObject({ status: 500 });
    await get('/api/plugins/zeta').expect(404);
    const audits: { action: string }[] = await dataSource.query(`SELECT "action" FROM "audit_entry" WHERE "slug" = 'zeta'`);
    expect(audits.map((audit) => audit.action)).not.toContain('plugin.publish');
    expect(await dataSource.query('SELECT 1 FROM "transparency_leaf" WHERE "index" = $1', [String(size)])).toEqual([]);
    expect((await head()).size).toBe(size);

    await dataSource.query('DELETE FROM "transparency_node" WHERE "level" = 0 AND "index" = $1', [String(size)]);
    await world.publish('zeta', '1.0.0');
    expect(await logIndexOf('zeta', '1.0.0')).toBe(size);
  });

  it.each([
    ['/api/log/proof/inclusion', 'index'],
    ['/api/log/proof/inclusion?index=x', 'index'],
    ['/api/log/proof/inclusion?index=-1', 'index'],
    ['/api/log/proof/inclusion?index=1.5', 'index'],
    ['/api/log/proof/inclusion?index=5&size=5', 'index'],
    ['/api/log/proof/inclusion?index=0&size=0', 'size'],
    ['/api/log/proof/inclusion?index=0&size=999999', 'size'],
    ['/api/log/proof/inclusion?index=999999', 'index'],
    ['/api/log/proof/inclusion?index=0&other=1', 'other'],
    ['/api/log/proof/consistency?from=2', 'to'],
    ['/api/log/proof/consistency?from=3&to=2', 'from'],
    ['/api/log/proof/consistency?from=1&to=999999', 'to'],
    ['/api/log/proof/consistency?from=a&to=2', 'from'],
    ['/api/log/entries/x', 'index'],
    ['/api/log/entries/-3', 'index'],
  ])('answers 400 naming the field for %s', async (path, field) => {
    const answer = await get(path).expect(400);
    expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: `/${field}` })]));
  });

  describe('proofs on the catalogue lane', () => {
    const COMPARED_HEADERS = [
      'content-type',
      'cache-control',
      'vary',
      'etag',
      'content-length',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
    ];
    /** Anonymous (the lane answers) or with a header that sends the request to the controller (an unknown token reads as anonymous there). */
    const read = async (url: string, via: 'lean' | 'controller') => {
      let req = get(url);
      if (via === 'controller') req = req.set('Authorization', 'Bearer not-a-token');
      const res = await req;
      return {
        status: res.status,
        body: res.body as unknown,
        headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers[h]])),
      };
    };

    it.each([
      '/api/log/proof/inclusion?index=3&size=10',
      '/api/log/proof/inclusion?size=10&index=0',
      '/api/log/proof/inclusion?index=7',
      '/api/log/proof/consistency?from=3&to=10',
      '/api/log/proof/consistency?to=11&from=11',
      '/api/log/proof/consistency?from=0&to=5',
      // An unusual spelling the validator reads.
      '/api/log/proof/inclusion?index=03',
    ])('%s: exactly as the controller answers it', async (url) => {
      const lean = await read(url, 'lean');
      expect(lean.status).toBe(200);
      expect(lean).toEqual(await read(url, 'controller'));
    });

    it.each([
      '/api/log/proof/inclusion?index=3&size=0',
      '/api/log/proof/inclusion?index=10&size=10',
      '/api/log/proof/inclusion?index=1&index=2',
      '/api/log/proof/inclusion?index=1&size=99999999',
      '/api/log/proof/consistency?from=5&to=4',
      '/api/log/proof/consistency?from=5',
      '/api/log/proof/consistency?from=5&to=6&x=1',
    ])('%s: handed to the controller, the same 400 on both paths', async (url) => {
      const lean = await read(url, 'lean');
      expect(lean.status).toBe(400);
      expect(lean.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(lean).toEqual(await read(url, 'controller'));
    });
  });

  it('answers 404 for an entry past the head', async () => {
    const { size } = await head();
    const answer = await get(`/api/log/entries/${size}`).expect(404);
    expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    await get(`/api/log/entries/${size - 1}`).expect(200);
  });

  it('fills the held levels at start, before any proof is asked', async () => {
    const leaves = await leafHashes();
    expect(leaves.length).toBeGreaterThanOrEqual(256);
    await world.restart();
    await world.app.app.get(ReleaseResignWorker).stop();
    const upper = (world.app.app.get(TransparencyService) as unknown as { upper: UpperTreeLevels }).upper;
    // No proof asked of this instance: start-up alone filled them.
    await eventually(async () => (upper.heldNodes >= leaves.length - 16 ? true : null), 'the held levels after a restart');
    const index = leaves.length - 5;
    const proof = (await get(`/api/log/proof/inclusion?index=${index}&size=${leaves.length}`).expect(200)).body;
    expect(() => verifyInclusion(index, leaves.length, leaves[index]!, proof.proof.map(b64), merkleRoot(leaves))).not.toThrow();
  });
});
