/**
 * Signing keys against a real database (PGlite by default, PostgreSQL with DATABASE_URL): the
 * race-safe first key, encryption at rest, the rotation state machine, the unique-index backstop,
 * and a known-answer signature through the Nest module with an injected key.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AuditModule } from '../../src/platform/audit/audit.module';
import { CommonModule } from '../../src/common/common.module';
import { loadConfig } from '../../src/config/config';
import { ConfigModule } from '../../src/config/config.module';
import type { AppConfig } from '../../src/config/config.types';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { openDatabase, type DatabaseHandle } from '../../src/database/database-handle';
import { DatabaseModule } from '../../src/database/database.module';
import { IntegrityModule } from '../../src/trust/integrity/integrity.module';
import { ResponseCacheModule } from '../../src/platform/response-cache/response-cache.module';
import { IntegrityService } from '../../src/trust/integrity/integrity.service';
import { KeyEncryption, SigningKeyDecryptionError } from '../../src/trust/integrity/key-encryption';
import { KeysService } from '../../src/trust/integrity/keys.service';
import { RandomSigningKeyGenerator, SigningKeyGenerator } from '../../src/trust/integrity/signing-key-generator';
import { SigningKeyManager } from '../../src/trust/integrity/signing-key-manager';
import { ReleaseSignaturesRepository } from '../../src/trust/integrity/release-signatures.repository';
import { SigningKeyRepository } from '../../src/trust/integrity/signing-key.repository';
import { exportPrivateKeyPkcs8 } from '../../src/lib/integrity';
import { keyA, keyB, keyC, PINNED_PAYLOAD, PINNED_RELEASE_JWS } from '../../src/lib/integrity/testdata/signing-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TransparencyLog } from '../../src/trust/transparency-log/transparency-log';
import { TransparencyRepository } from '../../src/trust/transparency-log/transparency.repository';

/** Hands out the given keys in order (house rule 9: signing keys are injectable). */
class SequenceSigningKeyGenerator extends SigningKeyGenerator {
  constructor(private readonly keys: KeyObject[]) {
    super();
  }

  generate(): KeyObject {
    const key = this.keys.shift();
    if (!key) throw new Error('the test ran out of signing keys');
    return key;
  }
}

const KEK_HEX = randomBytes(32).toString('hex');

interface Harness {
  db: TestDatabase;
  config: AppConfig;
  handle: DatabaseHandle;
  /** More DataSources on the same database, standing in for other server instances. */
  extraDataSources: DataSource[];
  close(): Promise<void>;
}

async function openHarness(): Promise<Harness> {
  const db = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', ...db.env, KEY_ENCRYPTION_KEY: KEK_HEX });
  const handle = await openDatabase(config, { embeddedMode: 'own', migrate: false });
  const extraDataSources: DataSource[] = [];
  return {
    db,
    config,
    handle,
    extraDataSources,
    async close() {
      for (const dataSource of extraDataSources) if (dataSource.isInitialized) await dataSource.destroy();
      await handle.close();
      await db.drop();
    },
  };
}

/** A second, independent connection pool on the same database (the embedded one through its socket). */
async function anotherDataSource(harness: Harness): Promise<DataSource> {
  const { config, handle } = harness;
  const dataSource = new DataSource(
    dataSourceOptions(config.databaseUrl ? { url: config.databaseUrl } : { embedded: handle.embedded!.target }),
  );
  await dataSource.initialize();
  harness.extraDataSources.push(dataSource);
  return dataSource;
}

function managerOn(
  dataSource: DataSource,
  generator: SigningKeyGenerator = new RandomSigningKeyGenerator(),
  kek = Buffer.from(KEK_HEX, 'hex'),
) {
  return new SigningKeyManager(
    new SigningKeyRepository(dataSource),
    new ReleaseSignaturesRepository(dataSource),
    new KeyEncryption(kek),
    generator,
    new TransparencyLog(new TransparencyRepository(dataSource)),
  );
}

async function stateCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const rows: { state: string; n: number }[] = await dataSource.query('SELECT state, count(*)::int AS n FROM signing_key GROUP BY state');
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

describe('first signing key', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await openHarness();
  });
  afterEach(async () => {
    await harness?.close();
  });

  it('is created exactly once when several instances race to create it', async () => {
    const second = await anotherDataSource(harness);
    const managers = [managerOn(harness.handle.dataSource), managerOn(second)];
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((index) => managers[index % 2]!.ensureCurrentKey()));
    expect(new Set(results.map((result) => result.kid)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await stateCounts(harness.handle.dataSource)).toEqual({ current: 1 });
    // A later call finds the key and creates nothing.
    await expect(managers[1]!.ensureCurrentKey()).resolves.toEqual({ kid: results[0]!.kid, created: false });
  });

  it('loses the insert race gracefully: ON CONFLICT against the partial unique index keeps the winner', async () => {
    const repository = new SigningKeyRepository(harness.handle.dataSource);
    const encryption = new KeyEncryption(harness.config.keyEncryptionKey);
    const row = (key: typeof keyA) => ({
      kid: key.jwk.kid,
      publicX: key.jwk.x,
      sealed: encryption.seal(exportPrivateKeyPkcs8(key.privateKey), key.jwk.kid),
      createdAt: new Date(),
    });
    await expect(repository.transaction((em) => repository.insertCurrentIfAbsent(em, row(keyA)))).resolves.toBe(true);
    await expect(repository.transaction((em) => repository.insertCurrentIfAbsent(em, row(keyB)))).resolves.toBe(false);
    expect((await repository.findCurrent())?.kid).toBe(keyA.jwk.kid);
    expect(await stateCounts(harness.handle.dataSource)).toEqual({ current: 1 });
  });

  it('lets the database refuse a second current or previous key; several keys may drain at once', async () => {
    const ds = harness.handle.dataSource;
    const insert = (kid: string, state: string) =>
      ds.query(
        `INSERT INTO signing_key (kid, state, public_x, private_key_ciphertext, private_key_iv, private_key_tag, created_at)
         VALUES ($1, $2, 'x', '\\x00', '\\x00', '\\x00', now())`,
        [kid, state],
      );
    await insert('k1', 'current');
    await expect(insert('k2', 'current')).rejects.toMatchObject({ code: '23505' });
    await insert('k3', 'previous');
    await expect(insert('k4', 'previous')).rejects.toMatchObject({ code: '23505' });
    await insert('k8', 'draining');
    await insert('k9', 'draining');
    await insert('k5', 'retired');
    await insert('k6', 'retired');
    await expect(insert('k7', 'pending')).rejects.toMatchObject({ code: '23514' });
    // Only a retired key may lose its private key: a draining key still holds one until it retires.
    await expect(
      ds.query("INSERT INTO signing_key (kid, state, public_x, created_at) VALUES ('k10', 'draining', 'x', now())"),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

describe('signing keys at rest', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await openHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('stores the private key encrypted, decryptable only with the right key-encryption key', async () => {
    const manager = managerOn(harness.handle.dataSource, new SequenceSigningKeyGenerator([keyA.privateKey]));
    await expect(manager.ensureCurrentKey()).resolves.toEqual({ kid: keyA.jwk.kid, created: true });

    const [row] = await harness.handle.dataSource.query(
      "SELECT kid, public_x, private_key_ciphertext, private_key_iv, private_key_tag FROM signing_key WHERE state = 'current'",
    );
    const pkcs8 = Buffer.from(exportPrivateKeyPkcs8(keyA.privateKey));
    const seed = pkcs8.subarray(-32);
    expect(row.kid).toBe(keyA.jwk.kid);
    expect(row.public_x).toBe(keyA.jwk.x);
    expect(row.private_key_iv).toHaveLength(12);
    expect(row.private_key_tag).toHaveLength(16);
    expect(Buffer.compare(row.private_key_ciphertext, pkcs8)).not.toBe(0);
    for (const column of [row.private_key_ciphertext, row.private_key_iv, row.private_key_tag] as Buffer[]) {
      expect(column.includes(seed.subarray(0, 8))).toBe(false);
      expect(column.includes(pkcs8.subarray(0, 16))).toBe(false);
    }

    const sealed = { ciphertext: row.private_key_ciphertext, iv: row.private_key_iv, tag: row.private_key_tag };
    expect(new KeyEncryption(harness.config.keyEncryptionKey).open(sealed, row.kid).equals(pkcs8)).toBe(true);

    const signing = await manager.signingKey();
    expect(signing.kid).toBe(keyA.jwk.kid);

    const wrongKek = managerOn(harness.handle.dataSource, new RandomSigningKeyGenerator(), randomBytes(32));
    await expect(wrongKek.signingKey()).rejects.toThrow(SigningKeyDecryptionError);
    await expect(wrongKek.signingKey()).rejects.toThrow(
      `signing key ${keyA.jwk.kid} cannot be decrypted: KEY_ENCRYPTION_KEY is not the key it was encrypted with, or the stored key was altered`,
    );
  });
});

describe('rotation', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await openHarness();
  });
  afterEach(async () => {
    await harness?.close();
  });

  it('moves a key that signed no release current → previous → retired; the key set is then current + previous', async () => {
    const manager = managerOn(
      harness.handle.dataSource,
      new SequenceSigningKeyGenerator([keyA.privateKey, keyB.privateKey, keyC.privateKey]),
    );
    const audited: unknown[] = [];
    const audit = async (_: unknown, rotation: unknown) => void audited.push(rotation);
    await manager.ensureCurrentKey();
    expect(await manager.publishedKeys()).toEqual([keyA.jwk]);

    await expect(manager.rotate(audit)).resolves.toEqual({
      kid: keyB.jwk.kid,
      previousKid: keyA.jwk.kid,
      drainingKid: null,
      retiredKids: [],
      pending: 0,
      stillDraining: [],
    });
    expect(await manager.publishedKeys()).toEqual([keyB.jwk, keyA.jwk]);
    expect((await manager.signingKey()).kid).toBe(keyB.jwk.kid);

    await expect(manager.rotate(audit)).resolves.toEqual({
      kid: keyC.jwk.kid,
      previousKid: keyB.jwk.kid,
      drainingKid: null,
      retiredKids: [keyA.jwk.kid],
      pending: 0,
      stillDraining: [],
    });
    expect(await manager.publishedKeys()).toEqual([keyC.jwk, keyB.jwk]);
    expect((await manager.signingKey()).kid).toBe(keyC.jwk.kid);

    const listed = await manager.list();
    expect(listed.map((key) => [key.kid, key.state])).toEqual([
      [keyC.jwk.kid, 'current'],
      [keyB.jwk.kid, 'previous'],
      [keyA.jwk.kid, 'retired'],
    ]);
    expect(listed[2]!.retiredAt).toBeInstanceOf(Date);
    expect(listed[1]!.demotedAt).toBeInstanceOf(Date);
    expect(audited).toEqual([
      { kid: keyB.jwk.kid, previousKid: keyA.jwk.kid, drainingKid: null, retiredKids: [], pending: 0, stillDraining: [] },
      { kid: keyC.jwk.kid, previousKid: keyB.jwk.kid, drainingKid: null, retiredKids: [keyA.jwk.kid], pending: 0, stillDraining: [] },
    ]);

    // A retired key can never sign again: its encrypted private key is gone.
    const [retired] = await harness.handle.dataSource.query(
      'SELECT private_key_ciphertext, private_key_iv, private_key_tag FROM signing_key WHERE kid = $1',
      [keyA.jwk.kid],
    );
    expect(retired).toEqual({ private_key_ciphertext: null, private_key_iv: null, private_key_tag: null });
  });

  it('rolls the whole rotation back when its audit entry fails', async () => {
    const manager = managerOn(harness.handle.dataSource, new SequenceSigningKeyGenerator([keyA.privateKey, keyB.privateKey]));
    await manager.ensureCurrentKey();
    await expect(
      manager.rotate(async () => {
        throw new Error('audit down');
      }),
    ).rejects.toThrow('audit down');
    expect((await manager.list()).map((key) => [key.kid, key.state])).toEqual([[keyA.jwk.kid, 'current']]);
  });

  it('never yields two current keys when instances rotate at the same moment', async () => {
    const second = await anotherDataSource(harness);
    const managers = [managerOn(harness.handle.dataSource), managerOn(second)];
    await managers[0]!.ensureCurrentKey();
    for (let round = 0; round < 3; round++) {
      const [left, right] = await Promise.all(managers.map((manager) => manager.rotate()));
      // The rotations queued: one of them displaced the other's new key.
      const chained = left!.previousKid === right!.kid || right!.previousKid === left!.kid;
      expect(chained).toBe(true);
      const published = await managers[round % 2]!.publishedKeys();
      expect(published.map((key) => key.kid).sort()).toEqual([left!.kid, right!.kid].sort());
      expect(await stateCounts(harness.handle.dataSource)).toEqual({ current: 1, previous: 1, retired: 1 + round * 2 });
    }
  });
});

describe('two server instances starting at once', () => {
  let db: TestDatabase;
  let proxy: TcpProxy | null = null;
  let owner: { stop(): Promise<void> } | null = null;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await proxy?.stop();
    await owner?.stop();
    await db?.drop();
  });

  it('agree on one current key', async () => {
    let env: Record<string, string> = { KEY_ENCRYPTION_KEY: KEK_HEX };
    if (db.kind === 'embedded') {
      // Only one process owns the PGlite files: it stays up here, and both apps reach it as a
      // database server, through a loopback TCP proxy to its socket.
      const { openEmbeddedDatabase } = await import('../../src/database/embedded/embedded-postgres');
      const embedded = await openEmbeddedDatabase({ dataDir: db.dataDir, mode: 'own' });
      owner = embedded;
      proxy = new TcpProxy({ path: `${embedded.target.host}/.s.PGSQL.${embedded.target.port}` });
      env = { ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${await proxy.start()}/postgres` };
    }
    apps.push(...(await Promise.all([startTestApp(env, db), startTestApp(env, db)])));
    const ds = apps[0]!.database.dataSource;
    expect(await stateCounts(ds)).toEqual({ current: 1 });
    const [first, second] = await Promise.all(apps.map((app) => app.app.get(IntegrityService).keySet()));
    expect(first!.keys).toHaveLength(1);
    expect(second).toEqual(first);
    // Either instance signs with that one key.
    const signatures = await Promise.all(apps.map((app) => app.app.get(IntegrityService).signRelease(PINNED_PAYLOAD)));
    expect(signatures.map((signature) => signature.kid)).toEqual([first!.keys[0]!.kid, first!.keys[0]!.kid]);
  });

  it('an instance with another KEY_ENCRYPTION_KEY still serves the key set but refuses to sign, clearly', async () => {
    const env: Record<string, string> = apps[0]!.config.databaseUrl ? { DATABASE_URL: apps[0]!.config.databaseUrl } : {};
    const misconfigured = await startTestApp({ ...env, KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, db);
    apps.push(misconfigured);
    const served = await misconfigured.app.get(IntegrityService).keySet();
    expect(served).toEqual(await apps[0]!.app.get(IntegrityService).keySet());
    await expect(misconfigured.app.get(IntegrityService).signRelease(PINNED_PAYLOAD)).rejects.toThrow(
      `signing key ${served.keys[0]!.kid} cannot be decrypted: KEY_ENCRYPTION_KEY is not the key it was encrypted with`,
    );
  });
});

describe('IntegrityModule with an injected signing key', () => {
  let harness: Harness;
  let app: INestApplication;

  beforeAll(async () => {
    harness = await openHarness();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(harness.config),
        CommonModule,
        DatabaseModule.forRoot(harness.handle),
        ResponseCacheModule,
        AuditModule,
        IntegrityModule,
      ],
    })
      .overrideProvider(SigningKeyGenerator)
      .useValue(new SequenceSigningKeyGenerator([keyA.privateKey, keyB.privateKey]))
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await harness?.close();
  });

  it('creates the first key at start and signs the pinned JWS with it (known answer)', async () => {
    expect((await app.get(KeysService).list()).map((key) => [key.kid, key.state])).toEqual([[keyA.jwk.kid, 'current']]);
    await expect(app.get(IntegrityService).signRelease(PINNED_PAYLOAD)).resolves.toEqual({ jws: PINNED_RELEASE_JWS, kid: keyA.jwk.kid });
  });

  it('signs inside a caller transaction (one pooled connection on PGlite does not deadlock)', async () => {
    const signature = await harness.handle.dataSource.transaction((manager) =>
      app.get(IntegrityService).signRelease(PINNED_PAYLOAD, manager),
    );
    expect(signature.jws).toBe(PINNED_RELEASE_JWS);
  });

  it('rotates and audits key.rotate in the same transaction', async () => {
    const rotation = await app.get(KeysService).rotate({ userId: null, ip: '127.0.0.1' });
    expect(rotation).toEqual({
      kid: keyB.jwk.kid,
      previousKid: keyA.jwk.kid,
      drainingKid: null,
      retiredKids: [],
      pending: 0,
      stillDraining: [],
    });
    const entries = await harness.handle.dataSource.query("SELECT action, ip, details FROM audit_entry WHERE action = 'key.rotate'");
    expect(entries).toEqual([
      {
        action: 'key.rotate',
        ip: '127.0.0.1',
        details: { newKid: keyB.jwk.kid, previousKid: keyA.jwk.kid, drainingKid: null, retiredKids: [], pending: 0, stillDraining: [] },
      },
    ]);
    expect((await app.get(IntegrityService).keySet()).keys).toEqual([keyB.jwk, keyA.jwk]);
  });
});
