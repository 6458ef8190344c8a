/**
 * Rotation that never strands a release, over HTTP: releases published under K1, two rotations,
 * and while K1's releases are re-signed the served key set and every served release are checked
 * with the framework-free verifier, in both fetch orders, between batches and during them.
 */
import type { ResignVia } from '../../src/trust/integrity/key-drain';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { ReleaseResigner } from '../../src/trust/integrity/release-resigner';
import { ReleaseSignaturesRepository } from '../../src/trust/integrity/release-signatures.repository';
import { SigningKeyManager } from '../../src/trust/integrity/signing-key-manager';
import { SigningKeyRepository } from '../../src/trust/integrity/signing-key.repository';
import { verifyRelease, type KeySet, type ReleaseRecord } from '../../src/lib/integrity';
import { RotationWorld, type PublishedRelease } from '../support/rotation-world';

const GRACE_MS = 60_000;
const SILENT = { log: () => undefined, warn: () => undefined, error: (message: string) => void process.stderr.write(`${message}\n`) };

describe('key rotation with re-signing', () => {
  let world: RotationWorld;
  let clock: Date;
  let resigner: ReleaseResigner;
  let worker: ReleaseResignWorker;
  let app: RotationWorld['app']['app'];
  const payloadSegments = new Map<string, string>();
  const key = (release: PublishedRelease) => `${release.slug}@${release.version}`;

  /** Every published release, fetched over HTTP at once. */
  async function fetchAll(): Promise<Map<string, ReleaseRecord>> {
    const records = await Promise.all(world.published.map((published) => world.release(published)));
    return new Map(world.published.map((published, index) => [key(published), records[index]!]));
  }

  /** Releases that do not verify against `keys` alone (no refresh), and why. */
  async function unverifiable(keys: KeySet, releases: Map<string, ReleaseRecord>): Promise<string[]> {
    const problems: string[] = [];
    for (const published of world.published) {
      const verdict = await verifyRelease({ release: releases.get(key(published))!, keys, expected: published });
      if (!verdict.ok) problems.push(`${key(published)}: ${verdict.code} ${verdict.message}`);
    }
    return problems;
  }

  /** Both orders: the key set then the releases, and the releases then the key set. */
  async function checkEveryRelease(): Promise<string[]> {
    const keys = await world.keySet();
    const setFirst = await unverifiable(keys, await fetchAll());
    const records = await fetchAll();
    return [...setFirst, ...(await unverifiable(await world.keySet(), records))];
  }

  beforeAll(async () => {
    // The app's own worker is stopped below; this test drives one with a clock it controls.
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    await world.app.app.get(ReleaseResignWorker).stop();
    clock = new Date();
    app = world.app.app;
    resigner = new ReleaseResigner(
      app.get(SigningKeyRepository),
      app.get(ReleaseSignaturesRepository),
      app.get(SigningKeyManager),
      () => clock,
    );
    worker = new ReleaseResignWorker(resigner, { batchSize: 3, intervalMs: 3_600_000, retireGraceMs: GRACE_MS }, SILENT);
  });
  afterAll(async () => {
    await worker?.stop();
    await world?.close();
  });

  it('keeps every release verifiable against the served key set while K1 drains, then K1 leaves', async () => {
    for (const slug of ['alpha', 'beta', 'gamma'])
      for (const version of ['1.0.0', '1.1.0', '2.0.0', '2.1.0']) await world.publish(slug, version);
    const [k1] = await world.servedKids();
    for (const published of world.published)
      payloadSegments.set(key(published), (await world.release(published)).integrity!.jws.split('.')[1]!);

    const first = await world.admin('post', '/api/admin/keys/rotate').expect(200);
    expect(first.body).toEqual({
      kid: expect.any(String),
      previousKid: k1,
      drainingKid: null,
      retiredKids: [],
      pending: 0,
      stillDraining: [],
    });
    const k2 = first.body.kid as string;
    const underK1 = [...world.published];
    await world.publish('delta', '1.0.0');
    await world.publish('delta', '1.0.1');
    const k2Releases = world.published.filter((published) => !underK1.includes(published));
    for (const published of k2Releases) payloadSegments.set(key(published), (await world.release(published)).integrity!.jws.split('.')[1]!);

    // The second rotation displaces K1, which still signs 12 releases: it drains instead of leaving.
    const second = await world.admin('post', '/api/admin/keys/rotate').expect(200);
    expect(second.body).toEqual({
      kid: expect.any(String),
      previousKid: k2,
      drainingKid: k1,
      retiredKids: [],
      pending: 12,
      stillDraining: [],
    });
    const k3 = second.body.kid as string;
    expect(await world.servedKids()).toEqual([k3, k2, k1]);
    const listed = await world.admin('get', '/api/admin/keys').expect(200);
    expect(
      listed.body.keys.map((entry: { kid: string; state: string; pending: number }) => [entry.kid, entry.state, entry.pending]),
    ).toEqual([
      [k3, 'current', 0],
      [k2, 'previous', 0],
      [k1, 'draining', 12],
    ]);

    // Step by step: after every committed batch, every release verifies against the served set.
    expect(await checkEveryRelease()).toEqual([]);
    for (const expectedLeft of [9, 6]) {
      await expect(resigner.resignBatch(3, 'worker')).resolves.toEqual({ signedWith: k3, resigned: 3, failed: 0 });
      expect((await world.storedKids()).filter((kid) => kid === k1)).toHaveLength(expectedLeft);
      expect(await checkEveryRelease()).toEqual([]);
    }

    // The rest through the worker, one release per batch, each batch running side by side with a
    // full check (on PostgreSQL the check reads while the batch's transaction is open).
    const observed: string[] = [];
    let rounds = 0;
    const observing = new (class extends ReleaseResigner {
      override async resignBatch(limit: number, via: ResignVia) {
        const [batch, problems] = await Promise.all([resigner.resignBatch(limit, via), checkEveryRelease()]);
        observed.push(...problems);
        rounds++;
        return batch;
      }
    })(app.get(SigningKeyRepository), app.get(ReleaseSignaturesRepository), app.get(SigningKeyManager), () => clock);
    const observedWorker = new ReleaseResignWorker(observing, { batchSize: 1, intervalMs: 3_600_000, retireGraceMs: GRACE_MS }, SILENT);
    const pass = await observedWorker.runOnce();
    expect(observed).toEqual([]);
    expect(rounds).toBe(7);
    expect(pass).toMatchObject({ resigned: 6, failed: 0, batches: 6, drains: [{ state: 'grace', kid: k1 }] });

    // Nothing signed by K1 is left, but a release response cached before the last batch may still
    // name K1: K1 stays in the key set for the grace period.
    expect((await world.storedKids()).filter((kid) => kid === k1)).toEqual([]);
    expect(await world.servedKids()).toEqual([k3, k2, k1]);
    expect(await checkEveryRelease()).toEqual([]);

    clock = new Date(clock.getTime() + GRACE_MS);
    await expect(worker.runOnce()).resolves.toMatchObject({ resigned: 0, drains: [{ state: 'retired', kid: k1 }] });
    expect(await world.servedKids()).toEqual([k3, k2]);
    expect(await checkEveryRelease()).toEqual([]);

    // K1's releases now name K3 over the very same payload bytes; K2's releases were left alone.
    for (const published of world.published) {
      const jws = (await world.release(published)).integrity!.jws;
      expect(jws.split('.')[1]).toBe(payloadSegments.get(key(published)));
      expect(JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString())).toEqual({
        alg: 'EdDSA',
        kid: k2Releases.includes(published) ? k2 : k3,
      });
    }

    const resignAudit = await world.admin('get', '/api/admin/audit?action=key.resign').expect(200);
    expect(resignAudit.body.entries).toHaveLength(1);
    expect(resignAudit.body.entries[0]).toMatchObject({
      action: 'key.resign',
      actor: { userId: null, tokenId: null },
      details: { kid: k1, resignedWith: k3, resigned: 12, failed: 0, failures: [], via: 'worker' },
    });
    const rotateAudit = await world.admin('get', '/api/admin/audit?action=key.rotate').expect(200);
    expect(rotateAudit.body.entries.map((entry: { details: unknown }) => entry.details)).toEqual([
      { newKid: k3, previousKid: k2, drainingKid: k1, retiredKids: [], pending: 12, stillDraining: [] },
      { newKid: k2, previousKid: k1, drainingKid: null, retiredKids: [], pending: 0, stillDraining: [] },
    ]);

    // K1 retired; the next rotation lets K2 (two releases) drain in turn.
    const third = await world.admin('post', '/api/admin/keys/rotate').expect(200);
    expect(third.body).toEqual({
      kid: expect.any(String),
      previousKid: k3,
      drainingKid: k2,
      retiredKids: [],
      pending: 2,
      stillDraining: [],
    });
    const keys = (await world.admin('get', '/api/admin/keys').expect(200)).body.keys;
    expect(keys.find((entry: { kid: string }) => entry.kid === k1)).toMatchObject({
      state: 'retired',
      pending: 0,
      resigned: 12,
      retiredAt: expect.any(Number),
    });
  });
});
