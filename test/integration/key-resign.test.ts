/**
 * Re-signing a displaced key's releases against a real database (PGlite by default, PostgreSQL
 * with DATABASE_URL): resuming after a stop mid-drain, the worker woken by a rotation, two workers
 * at once, releases that must not be re-signed, late releases of a retired key, and the private
 * key that is only ever read to sign.
 */
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { KeysService } from '../../src/trust/integrity/keys.service';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { ReleaseResigner } from '../../src/trust/integrity/release-resigner';
import { ReleaseSignaturesRepository } from '../../src/trust/integrity/release-signatures.repository';
import { resignCompactJws } from '../../src/trust/integrity/resign-signature';
import { publicJwkOf, SigningKeyManager } from '../../src/trust/integrity/signing-key-manager';
import { SigningKeyRepository } from '../../src/trust/integrity/signing-key.repository';
import { KeyEncryption } from '../../src/trust/integrity/key-encryption';
import { RandomSigningKeyGenerator } from '../../src/trust/integrity/signing-key-generator';
import { verifyRelease } from '../../src/lib/integrity';
import { RotationWorld } from '../support/rotation-world';
import { TransparencyLog } from '../../src/trust/transparency-log/transparency-log';
import { TransparencyRepository } from '../../src/trust/transparency-log/transparency.repository';

interface KeyRow {
  kid: string;
  state: string;
  resigned_count: number;
  drained_at: Date | null;
}

async function keyRows(world: RotationWorld): Promise<KeyRow[]> {
  return world.app.database.dataSource.query('SELECT kid, state, resigned_count, drained_at FROM signing_key ORDER BY created_at');
}

async function resignAudits(world: RotationWorld): Promise<Record<string, unknown>[]> {
  const rows: { details: Record<string, unknown> }[] = await world.app.database.dataSource.query(
    "SELECT details FROM audit_entry WHERE action = 'key.resign' ORDER BY created_at",
  );
  return rows.map((row) => row.details);
}

/** Polls (the background worker runs on its own schedule) until `condition` holds. */
async function eventually(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Plugins whose log size (the tree their `latest` freshness statements name) does not hold the
 * log entry one of their releases names: each resign entry must move it as a release entry does.
 */
async function logSizesBehind(world: RotationWorld): Promise<{ slug: string; log_size: string; last_index: string }[]> {
  return world.app.database.dataSource.query(
    'SELECT p.slug, p.log_size::text AS log_size, max(r.log_index)::text AS last_index FROM plugin p JOIN release r ON r.plugin_id = p.id GROUP BY p.id HAVING p.log_size <= max(r.log_index)',
  );
}

async function everyReleaseVerifies(world: RotationWorld): Promise<string[]> {
  const keys = await world.keySet();
  const problems: string[] = [];
  for (const published of world.published) {
    const verdict = await verifyRelease({ release: await world.release(published), keys, expected: published });
    if (!verdict.ok) problems.push(`${published.slug}@${published.version}: ${verdict.message}`);
  }
  return problems;
}

function resignerOf(world: RotationWorld, now: () => Date = () => new Date()): ReleaseResigner {
  const app = world.app.app;
  return new ReleaseResigner(app.get(SigningKeyRepository), app.get(ReleaseSignaturesRepository), app.get(SigningKeyManager), now);
}

/** Publishes `count` releases and rotates twice: the first key then drains with `count` releases pending. */
async function drainingWorld(world: RotationWorld, count: number): Promise<{ k1: string; k2: string; k3: string }> {
  for (let index = 0; index < count; index++) await world.publish(`plugin-${index % 3}`, `1.0.${Math.floor(index / 3)}`);
  const [k1] = await world.servedKids();
  const keys = world.app.app.get(KeysService);
  const k2 = (await keys.rotate({ userId: null })).kid;
  const second = await keys.rotate({ userId: null });
  expect(second).toMatchObject({ previousKid: k2, drainingKid: k1, pending: count });
  return { k1: k1!, k2, k3: second.kid };
}

describe('a drain interrupted after one batch', () => {
  let world: RotationWorld;

  beforeAll(async () => {
    // Small batches, no grace, and an interval long enough that only the start and a rotation wake the worker.
    world = await RotationWorld.open({ batchSize: 2, intervalMs: 3_600_000, retireGraceMs: 0 });
  });
  afterAll(() => world?.close());

  it('is resumed by the next app to start on the database, which finishes it and retires the key', async () => {
    await world.app.app.get(ReleaseResignWorker).stop();
    const { k1, k2, k3 } = await drainingWorld(world, 7);
    await expect(resignerOf(world).resignBatch(2, 'worker')).resolves.toEqual({ signedWith: k3, resigned: 2, failed: 0 });
    expect((await keyRows(world)).find((row) => row.kid === k1)).toMatchObject({ state: 'draining', resigned_count: 2 });

    // The app stops (as after a crash, nothing but the database carries the state) and another starts.
    await world.restart();
    await eventually(async () => (await keyRows(world)).find((row) => row.kid === k1)?.state === 'retired', 'K1 to retire');
    expect(await world.servedKids()).toEqual([k3, k2]);
    expect(await world.storedKids()).toEqual(Array(7).fill(k3));
    expect(await everyReleaseVerifies(world)).toEqual([]);
    // 2 + 5: no release was re-signed twice across the two apps.
    expect((await keyRows(world)).find((row) => row.kid === k1)).toMatchObject({ resigned_count: 7 });
    expect(await resignAudits(world)).toEqual([{ kid: k1, resignedWith: k3, resigned: 7, failed: 0, failures: [], via: 'worker' }]);
    expect(await logSizesBehind(world)).toEqual([]);
  });

  it('is started by a rotation: the worker wakes up and drains the displaced key', async () => {
    const before = await world.servedKids();
    await world.publish('late', '1.0.0');
    await world.publish('late', '1.0.1');
    const keys = world.app.app.get(KeysService);
    // K2 signed nothing: it retires at once. Then K3 (7 + 2 releases) drains.
    const third = await keys.rotate({ userId: null });
    expect(third).toMatchObject({ previousKid: before[0], drainingKid: null, retiredKids: [before[1]], pending: 0 });
    const fourth = await keys.rotate({ userId: null });
    expect(fourth).toMatchObject({ previousKid: third.kid, drainingKid: before[0], pending: 9 });
    await eventually(async () => !(await world.servedKids()).includes(before[0]!), 'K3 to leave the key set');
    expect(await world.servedKids()).toEqual([fourth.kid, third.kid]);
    expect(new Set(await world.storedKids())).toEqual(new Set([fourth.kid]));
    expect(await everyReleaseVerifies(world)).toEqual([]);
  });
});

describe('two workers draining at once', () => {
  let world: RotationWorld;
  let other: DataSource;

  beforeAll(async () => {
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    await world.app.app.get(ReleaseResignWorker).stop();
    const handle = world.app.database;
    // A second connection pool, standing in for another server instance or the CLI.
    other = new DataSource(
      dataSourceOptions(world.app.config.databaseUrl ? { url: world.app.config.databaseUrl } : { embedded: handle.embedded!.target }),
    );
    await other.initialize();
  });
  afterAll(async () => {
    if (other?.isInitialized) await other.destroy();
    await world?.close();
  });

  it('never re-sign a release twice, and every release ends with the one deterministic signature', async () => {
    const { k1, k3 } = await drainingWorld(world, 15);
    const before: { id: string; jws: string }[] = await world.app.database.dataSource.query(
      "SELECT id, integrity->>'jws' AS jws FROM release ORDER BY id",
    );
    const manager = world.app.app.get(SigningKeyManager);
    const current = await manager.signingKey();
    const k1Row = (await world.app.app.get(SigningKeyRepository).findByKid(k1))!;
    const expected = before.map((row) =>
      resignCompactJws({ jws: row.jws, kid: k1, oldKey: publicJwkOf(k1Row), newKid: current.kid, newPrivateKey: current.privateKey }),
    );

    const mine = resignerOf(world);
    const otherManager = new SigningKeyManager(
      new SigningKeyRepository(other),
      new ReleaseSignaturesRepository(other),
      new KeyEncryption(world.app.config.keyEncryptionKey),
      new RandomSigningKeyGenerator(),
      new TransparencyLog(new TransparencyRepository(other)),
    );
    const theirs = new ReleaseResigner(new SigningKeyRepository(other), new ReleaseSignaturesRepository(other), otherManager);
    const options = { batchSize: 2, graceMs: 0, via: 'worker' as const };
    const [left, right] = await Promise.all([mine.drain(options), theirs.drain(options)]);

    // Together exactly once each. Which drain takes how many batches is up to the scheduler: on a
    // loaded machine one may finish before the other's first claim, so no share is asserted.
    expect(left.resigned + right.resigned).toBe(15);
    expect(left.failed + right.failed).toBe(0);
    const after: { id: string; jws: string; kid: string }[] = await world.app.database.dataSource.query(
      "SELECT id, integrity->>'jws' AS jws, integrity->>'kid' AS kid FROM release ORDER BY id",
    );
    expect(after.map((row) => row.jws)).toEqual(expected.map((outcome) => (outcome as { jws: string }).jws));
    expect(new Set(after.map((row) => row.kid))).toEqual(new Set([k3]));
    const k1After = (await keyRows(world)).find((row) => row.kid === k1)!;
    expect(k1After).toMatchObject({ state: 'retired', resigned_count: 15 });
    // One of them retired K1 and audited it, once.
    expect(await resignAudits(world)).toEqual([{ kid: k1, resignedWith: k3, resigned: 15, failed: 0, failures: [], via: 'worker' }]);
    expect(await everyReleaseVerifies(world)).toEqual([]);
    expect(await logSizesBehind(world)).toEqual([]);
  });
});

describe('releases that cannot or must not be re-signed', () => {
  let world: RotationWorld;
  let k1 = '';
  let victimId = '';
  const clock = new Date();
  /** Each release's JWS as first published, by release id. */
  const originals = new Map<string, string>();

  beforeAll(async () => {
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    await world.app.app.get(ReleaseResignWorker).stop();
  });
  afterAll(() => world?.close());

  it('keeps a release whose signature does not verify as it is, names it in the audit, and still completes the drain', async () => {
    const drained = await drainingWorld(world, 4);
    k1 = drained.k1;
    const ds = world.app.database.dataSource;
    const rows: { id: string; jws: string }[] = await ds.query("SELECT id, integrity->>'jws' AS jws FROM release ORDER BY id");
    for (const row of rows) originals.set(row.id, row.jws);
    victimId = rows[0]!.id;
    // The stored signature no longer matches its payload (a damaged row).
    const damaged = `${rows[0]!.jws.slice(0, -4)}AAAA`;
    await ds.query("UPDATE release SET integrity = jsonb_set(integrity, '{jws}', to_jsonb($2::text)) WHERE id = $1", [victimId, damaged]);

    const summary = await resignerOf(world, () => clock).drain({ batchSize: 10, graceMs: 60_000, via: 'worker' });
    expect(summary).toMatchObject({ resigned: 3, failed: 1, drains: [{ state: 'grace', kid: k1 }] });
    const [kept] = await ds.query("SELECT integrity->>'jws' AS jws, integrity->>'kid' AS kid FROM release WHERE id = $1", [victimId]);
    expect(kept).toEqual({ jws: damaged, kid: k1 });
    const listed = await world.app.app.get(KeysService).list();
    expect(listed.find((key) => key.kid === k1)).toMatchObject({ state: 'draining', pending: 0, failed: 1, resigned: 3 });

    // Drained (the failed release does not hold the key back) but within its grace period: a
    // rotation leaves it draining, in the key set, and the first pass after the grace retires it.
    const rotation = await world.app.app.get(KeysService).rotate({ userId: null });
    expect(rotation.retiredKids).not.toContain(k1);
    expect(rotation.stillDraining).toEqual([{ kid: k1, pending: 0 }]);
    expect(await world.servedKids()).toContain(k1);
    const afterGrace = new Date(clock.getTime() + 60_000);
    await expect(resignerOf(world, () => afterGrace).completeDrain(60_000, 'worker')).resolves.toEqual([{ state: 'retired', kid: k1 }]);
    expect(await resignAudits(world)).toEqual([
      {
        kid: k1,
        resignedWith: rotation.kid,
        resigned: 3,
        failed: 1,
        failures: [{ releaseId: victimId, reason: `the Ed25519 signature does not verify under kid ${k1}` }],
        via: 'worker',
      },
    ]);
    // Nothing more for the worker to do: the failed release is not retried for ever.
    await expect(resignerOf(world).resignBatch(10, 'worker')).resolves.toEqual({ signedWith: null, resigned: 0, failed: 0 });
  });

  it('re-signs a release that turns up later for a retired key, from the public key its row keeps', async () => {
    const ds = world.app.database.dataSource;
    const keys = world.app.app.get(KeysService);
    expect((await keys.list()).find((key) => key.kid === k1)).toMatchObject({ state: 'retired', pending: 0 });
    const current = (await keys.list()).find((key) => key.state === 'current')!;
    // An ingest that signed with K1 just before K1 was displaced, and committed after K1 left.
    const lateId = [...originals.keys()].find((id) => id !== victimId)!;
    await ds.query("UPDATE release SET integrity = integrity || jsonb_build_object('jws', $2::text, 'kid', $3::text) WHERE id = $1", [
      lateId,
      originals.get(lateId),
      k1,
    ]);
    expect((await keys.list()).find((key) => key.kid === k1)).toMatchObject({ state: 'retired', pending: 1 });

    await expect(resignerOf(world).drain({ batchSize: 10, graceMs: 0, via: 'worker' })).resolves.toMatchObject({ resigned: 1, failed: 0 });
    const [rescued] = await ds.query("SELECT integrity->>'kid' AS kid, integrity->>'jws' AS jws FROM release WHERE id = $1", [lateId]);
    expect(rescued.kid).toBe(current.kid);
    expect(rescued.jws.split('.')[1]).toBe(originals.get(lateId)!.split('.')[1]);
    expect((await resignAudits(world)).at(-1)).toEqual({
      kid: k1,
      resignedWith: current.kid,
      resigned: 1,
      failed: 0,
      retiredKey: true,
      via: 'worker',
    });
    // Every release verifies except the damaged one, which was broken before any rotation.
    const problems = await everyReleaseVerifies(world);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/kid .* absent from key set/);
  });
});

describe('the encrypted private key', () => {
  let world: RotationWorld;

  beforeAll(async () => {
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
  });
  afterAll(() => world?.close());

  it('is not selected by default, only by the query that signs', async () => {
    const repository = world.app.app.get(SigningKeyRepository);
    const current = (await repository.findCurrent())!;
    expect(current).not.toHaveProperty('privateKeyCiphertext');
    expect(current).not.toHaveProperty('privateKeyIv');
    expect(current).not.toHaveProperty('privateKeyTag');
    expect(JSON.stringify(await repository.findAll())).not.toMatch(/privateKey/);
    const signing = (await repository.findCurrentWithPrivateKey())!;
    expect(signing.sealed?.iv).toHaveLength(12);
    expect(signing.sealed?.tag).toHaveLength(16);
  });
});
