import { randomBytes } from 'node:crypto';
import { freePort } from './free-port';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { configureHttp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { RouteTable } from '../../src/common/http/route-table';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/database/database-handle';
import { RESIGN_WORKER_OPTIONS } from '../../src/trust/integrity/integrity.module';
import { DEFAULT_RESIGN_WORKER_OPTIONS, type ResignWorkerOptions } from '../../src/trust/integrity/release-resign-worker';
import type { KeySet, ReleaseRecord } from '../../src/lib/integrity';
import { FakeForge } from './fake-forge';
import { manifestYaml } from './publishing';
import { userWithSession } from './sessions';
import type { TestApp } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * `startTestApp` on a given database, with the background re-signing worker's options overridden
 * (batch size, interval, retirement grace) and any other provider values given in `overrides`:
 * the real AppModule and HTTP pipeline otherwise.
 */
export async function startRegistry(
  db: TestDatabase,
  env: Record<string, string>,
  resignWorker: Partial<ResignWorkerOptions> = {},
  overrides: readonly { provide: string | symbol | (abstract new (...args: never[]) => unknown); useValue: unknown }[] = [],
): Promise<TestApp> {
  const port = await freePort();
  const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...db.env, ...env });
  const database = await openDatabase(config, { embeddedMode: 'own', migrate: true, serving: { say: () => undefined } });
  let builder = Test.createTestingModule({ imports: [AppModule.forRoot(config, database)] })
    .overrideProvider(RESIGN_WORKER_OPTIONS)
    .useValue({ ...DEFAULT_RESIGN_WORKER_OPTIONS, ...resignWorker });
  for (const override of overrides) builder = builder.overrideProvider(override.provide).useValue(override.useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    logger: false,
    bodyParser: false,
    rawBody: true,
    abortOnError: false,
  });
  const logger = createLogger('silent');
  configureHttp(app, config, logger);
  await app.init();
  const express = app.getHttpAdapter().getInstance() as unknown as { router?: { stack: Parameters<RouteTable['load']>[0] } };
  app.get(RouteTable).load(express.router?.stack ?? []);
  await app.listen(port, '127.0.0.1');
  return {
    app,
    config,
    database,
    testDatabase: db,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface PublishedRelease {
  slug: string;
  version: string;
}

/**
 * A registry on a database that outlives it (so a test can stop one app and start another on the
 * same data), a fake forge serving assets, a publisher and an admin.
 */
export class RotationWorld {
  app!: TestApp;
  readonly published: PublishedRelease[] = [];
  private publisherToken = '';
  private adminJwt = '';
  private readonly repos = new Map<string, string>();
  readonly env: Record<string, string>;

  private constructor(
    readonly db: TestDatabase,
    readonly forge: FakeForge,
    private readonly resignWorker: Partial<ResignWorkerOptions>,
    extraEnv: Record<string, string>,
  ) {
    const port = new URL(forge.url).port;
    this.env = {
      // Every app on this database shares the secrets, as a restarted server does.
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ...extraEnv,
      FETCH_ALLOW_HOSTS: `127.0.0.1:${port}`,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
    };
  }

  static async open(resignWorker: Partial<ResignWorkerOptions> = {}, extraEnv: Record<string, string> = {}): Promise<RotationWorld> {
    const world = new RotationWorld(await createTestDatabase(), await new FakeForge().start(), resignWorker, extraEnv);
    world.app = await startRegistry(world.db, world.env, resignWorker);
    const publisher = await userWithSession(world.app, 'rotation-publisher');
    const token = await request(world.app.url)
      .post('/api/auth/me/tokens')
      .set('Authorization', `Bearer ${publisher.jwt}`)
      .send({ name: 'ci', scopes: ['publish:*', 'yank:*'] })
      .expect(201);
    world.publisherToken = token.body.token as string;
    world.adminJwt = (await userWithSession(world.app, 'rotation-admin', 'admin')).jwt;
    return world;
  }

  /** Stops the app (its worker finishes the batch under way) and starts a new one on the same database. */
  async restart(resignWorker: Partial<ResignWorkerOptions> = this.resignWorker): Promise<void> {
    await this.app.close();
    this.app = await startRegistry(this.db, this.env, resignWorker);
  }

  async publish(slug: string, version: string): Promise<void> {
    const answer = await this.publishAnswer(slug, version);
    if (answer.status !== 201) throw new Error(`publishing ${slug} ${version}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** Pushes a release and answers whatever the registry answered (`publish` expects 201). */
  async publishAnswer(slug: string, version: string): Promise<request.Response> {
    const first = !this.repos.has(slug);
    if (first) this.repos.set(slug, `acme/${slug}`);
    const repo = this.repos.get(slug)!;
    const asset = this.forge.asset(`/${repo}/releases/download/v${version}/${slug}.zip`, { size: 2_000, seed: this.published.length + 1 });
    const answer = await request(this.app.url)
      .post(`/api/publish/${slug}`)
      .set('Authorization', `Bearer ${this.publisherToken}`)
      .send({
        manifest: manifestYaml({ name: slug, version, description: 'A plugin that outlives its signing key', tags: ['test'] }),
        manifestSource: 'plugin.yaml',
        version: `v${version}`,
        assets: [{ name: `${slug}.zip`, url: asset }],
        ...(first ? { repoUrl: `${this.forge.url}/${repo}` } : {}),
      });
    if (answer.status === 201) this.published.push({ slug, version });
    else if (first) this.repos.delete(slug);
    return answer;
  }

  /** Yanks a release (or restores it with `undo`). */
  async yank(slug: string, version: string, undo = false): Promise<void> {
    await request(this.app.url)
      .post(`/api/publish/${slug}/yank`)
      .set('Authorization', `Bearer ${this.publisherToken}`)
      .send({ version, ...(undo ? { undo: true } : {}) })
      .expect(200);
  }

  admin(method: 'get' | 'post' | 'delete', path: string): request.Test {
    return request(this.app.url)[method](path).set('Authorization', `Bearer ${this.adminJwt}`);
  }

  async keySet(): Promise<KeySet> {
    return (await request(this.app.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
  }

  async servedKids(): Promise<string[]> {
    return (await this.keySet()).keys.map((key) => key.kid);
  }

  async release(published: PublishedRelease): Promise<ReleaseRecord> {
    return (await request(this.app.url).get(`/api/plugins/${published.slug}/releases/${published.version}`).expect(200))
      .body as ReleaseRecord;
  }

  /** The kid each stored release's signature names, by release id. */
  async storedKids(): Promise<string[]> {
    const rows: { kid: string }[] = await this.app.database.dataSource.query(`SELECT integrity->>'kid' AS kid FROM release ORDER BY id`);
    return rows.map((row) => row.kid);
  }

  async close(): Promise<void> {
    await this.app?.close();
    await this.forge.stop();
    await this.db.drop();
  }
}
