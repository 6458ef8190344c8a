/**
 * An emergency rotation never waits for an earlier drain. Rotations in quick succession while
 * releases are still being re-signed: every one succeeds, every release verifies against the key
 * set served at every point (between rotations, during them, between re-signing batches and
 * during them), and once the re-signing settles every release names the current or the previous
 * key and the key set is those two again.
 */
import request from 'supertest';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { ReleaseResigner } from '../../src/trust/integrity/release-resigner';
import { ReleaseSignaturesRepository } from '../../src/trust/integrity/release-signatures.repository';
import { SigningKeyManager } from '../../src/trust/integrity/signing-key-manager';
import { SigningKeyRepository } from '../../src/trust/integrity/signing-key.repository';
import type { ResignVia } from '../../src/trust/integrity/key-drain';
import { verifyRelease, type KeySet, type ReleaseRecord } from '../../src/lib/integrity';
import { RotationWorld } from '../support/rotation-world';

const GRACE_MS = 60_000;
const SILENT = { log: () => undefined, warn: () => undefined, error: (message: string) => void process.stderr.write(`${message}\n`) };

interface RotationBody {
  kid: string;
  previousKid: string | null;
  drainingKid: string | null;
  retiredKids: string[];
  pending: number;
  stillDraining: { kid: string; pending: number }[];
}

describe('rotating while a key drains', () => {
  let world: RotationWorld;
  let clock: Date;
  let resigner: ReleaseResigner;
  /** Every verification problem seen at any checkpoint, with where it was seen. */
  const problems: string[] = [];
  let checkpoints = 0;

  async function fetchAll(): Promise<ReleaseRecord[]> {
    return Promise.all(world.published.map((published) => world.release(published)));
  }

  async function unverifiable(keys: KeySet, releases: ReleaseRecord[], where: string): Promise<string[]> {
    const found: string[] = [];
    for (const [index, published] of world.published.entries()) {
      const verdict = await verifyRelease({ release: releases[index]!, keys, expected: published });
      if (!verdict.ok) found.push(`${where}: ${published.slug}@${published.version}: ${verdict.code} ${verdict.message}`);
    }
    return found;
  }

  /** Both orders (key set then releases, releases then key set), against the set as served, without a refresh. */
  async function checkEveryRelease(where: string): Promise<void> {
    checkpoints++;
    const keys = await world.keySet();
    problems.push(...(await unverifiable(keys, await fetchAll(), `${where} (key set first)`)));
    const releases = await fetchAll();
    problems.push(...(await unverifiable(await world.keySet(), releases, `${where} (releases first)`)));
  }

  /** A rotation over HTTP, with a full check running beside it. */
  async function rotate(where: string): Promise<RotationBody> {
    const [response] = await Promise.all([world.admin('post', '/api/admin/keys/rotate'), checkEveryRelease(`during ${where}`)]);
    expect(response.status).toBe(200);
    await checkEveryRelease(`after ${where}`);
    return response.body as RotationBody;
  }

  const kidsOfReleases = async () => new Set(await world.storedKids());

  beforeAll(async () => {
    // The app's own worker is stopped; this test re-signs with a clock it controls.
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    await world.app.app.get(ReleaseResignWorker).stop();
    clock = new Date();
    const app = world.app.app;
    resigner = new ReleaseResigner(
      app.get(SigningKeyRepository),
      app.get(ReleaseSignaturesRepository),
      app.get(SigningKeyManager),
      () => clock,
    );
  });
  afterAll(async () => {
    await world?.close();
  });

  // About twenty publishes and forty full checks of every release: over a minute on a loaded machine.
  it('rotates twice and three times during a drain, and every release verifies against the served key set throughout', async () => {
    for (const slug of ['north', 'south', 'east']) for (const version of ['1.0.0', '1.1.0', '2.0.0']) await world.publish(slug, version);
    const [k1] = await world.servedKids();

    const first = await rotate('rotation 1');
    const k2 = first.kid;
    for (const version of ['1.0.0', '1.0.1']) await world.publish('west', version);
    await world.publish('north', '3.0.0');
    await world.publish('south', '3.0.0');

    // K1 (9 releases) starts draining.
    const second = await rotate('rotation 2');
    const k3 = second.kid;
    expect(second).toEqual({ kid: k3, previousKid: k2, drainingKid: k1, retiredKids: [], pending: 9, stillDraining: [] });
    await world.publish('west', '1.1.0');
    await world.publish('east', '3.0.0');

    // Part of K1's releases move to K3, then the emergency: K3 is rotated away while K1 still drains.
    await expect(resigner.resignBatch(4, 'worker')).resolves.toEqual({ signedWith: k3, resigned: 4, failed: 0 });
    await checkEveryRelease('after a first batch');
    const third = await rotate('rotation 3, during the drain of K1');
    const k4 = third.kid;
    expect(third).toEqual({
      kid: k4,
      previousKid: k3,
      drainingKid: k2,
      retiredKids: [],
      pending: 4,
      stillDraining: [{ kid: k1, pending: 5 }],
    });
    expect(await world.servedKids()).toEqual([k4, k3, k2, k1]);

    // And again, at once: K3 (2 of its own, 4 re-signed from K1) drains too; nothing was signed by K4.
    const fourth = await rotate('rotation 4, right after');
    const k5 = fourth.kid;
    expect(fourth).toEqual({
      kid: k5,
      previousKid: k4,
      drainingKid: k3,
      retiredKids: [],
      pending: 6,
      stillDraining: [
        { kid: k2, pending: 4 },
        { kid: k1, pending: 5 },
      ],
    });
    expect(await world.servedKids()).toEqual([k5, k4, k3, k2, k1]);
    const listed = (await world.admin('get', '/api/admin/keys').expect(200)).body.keys.map(
      (key: { kid: string; state: string; pending: number }) => [key.kid, key.state, key.pending],
    );
    expect(listed).toEqual([
      [k5, 'current', 0],
      [k4, 'previous', 0],
      [k3, 'draining', 6],
      [k2, 'draining', 4],
      [k1, 'draining', 5],
    ]);

    // A release published now is signed with K5 and verifies too.
    await world.publish('east', '3.1.0');
    await checkEveryRelease('after a publish during the drains');

    // The rest through a worker, one release per batch, each batch side by side with a full check.
    let rounds = 0;
    const observing = new (class extends ReleaseResigner {
      override async resignBatch(limit: number, via: ResignVia) {
        const [batch] = await Promise.all([resigner.resignBatch(limit, via), checkEveryRelease(`during batch ${rounds + 1}`)]);
        rounds++;
        await checkEveryRelease(`after batch ${rounds}`);
        return batch;
      }
    })(
      world.app.app.get(SigningKeyRepository),
      world.app.app.get(ReleaseSignaturesRepository),
      world.app.app.get(SigningKeyManager),
      () => clock,
    );
    const worker = new ReleaseResignWorker(observing, { batchSize: 1, intervalMs: 3_600_000, retireGraceMs: GRACE_MS }, SILENT);
    const pass = await worker.runOnce();
    expect(pass).toMatchObject({ resigned: 15, failed: 0, batches: 15 });
    expect(rounds).toBe(16);
    expect(pass.drains?.map((drain) => [drain.kid, drain.state])).toEqual([
      [k3, 'grace'],
      [k2, 'grace'],
      [k1, 'grace'],
    ]);
    // Every release names the current key now; the drained keys stay served through their grace.
    expect(await kidsOfReleases()).toEqual(new Set([k5]));
    expect(await world.servedKids()).toEqual([k5, k4, k3, k2, k1]);

    clock = new Date(clock.getTime() + GRACE_MS);
    const settled = await worker.runOnce();
    expect(settled.drains?.map((drain) => [drain.kid, drain.state])).toEqual([
      [k3, 'retired'],
      [k2, 'retired'],
      [k1, 'retired'],
    ]);
    await checkEveryRelease('after the drains settled');
    expect(await world.servedKids()).toEqual([k5, k4]);
    for (const kid of await kidsOfReleases()) expect([k5, k4]).toContain(kid);

    expect(problems).toEqual([]);
    expect(checkpoints).toBeGreaterThan(40);

    const rotateAudit = (await world.admin('get', '/api/admin/audit?action=key.rotate').expect(200)).body.entries;
    expect(rotateAudit.map((entry: { details: unknown }) => entry.details)).toEqual([
      fourthDetails(),
      { newKid: k4, previousKid: k3, drainingKid: k2, retiredKids: [], pending: 4, stillDraining: [{ kid: k1, pending: 5 }] },
      { newKid: k3, previousKid: k2, drainingKid: k1, retiredKids: [], pending: 9, stillDraining: [] },
      { newKid: k2, previousKid: k1, drainingKid: null, retiredKids: [], pending: 0, stillDraining: [] },
    ]);
    for (const entry of rotateAudit) expect(entry).toMatchObject({ action: 'key.rotate', actor: { userId: expect.any(String) } });
    const resignAudit = (await world.admin('get', '/api/admin/audit?action=key.resign').expect(200)).body.entries;
    expect(
      resignAudit.map((entry: { details: { kid: string; resigned: number } }) => [entry.details.kid, entry.details.resigned]).sort(),
    ).toEqual(
      [
        [k1, 9],
        [k2, 4],
        [k3, 6],
      ].sort(),
    );

    function fourthDetails() {
      return {
        newKid: k5,
        previousKid: k4,
        drainingKid: k3,
        retiredKids: [],
        pending: 6,
        stillDraining: [
          { kid: k2, pending: 4 },
          { kid: k1, pending: 5 },
        ],
      };
    }
  }, 180_000);

  it('no longer knows a key-drain-pending problem', async () => {
    const response = await request(world.app.url).get('/problems/key-drain-pending');
    expect(response.status).toBe(404);
  });
});
