import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import {
  DEFAULT_DELIVERY_WORKER_OPTIONS,
  DELIVERY_WORKER_OPTIONS,
  DeliveryWorker,
  type DeliveryWorkerOptions,
} from '../../src/publishing/webhooks/delivery-worker';
import { FakeForge, type ForgeKind, webhookHeaders } from './fake-forge';
import { manifestYaml } from './publishing';
import { startRegistry } from './rotation-world';
import { userWithSession } from './sessions';
import type { TestApp } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-database';

export const FORGE_KINDS: readonly ForgeKind[] = ['github', 'gitlab', 'gitea', 'forgejo'];

/** Each forge family is an instance of its own on the one fake forge, under a path prefix. */
const INSTANCES: Record<ForgeKind, { name: string; prefix: string; api: string }> = {
  github: { name: 'fakehub', prefix: '/gh', api: '/gh/api/v3' },
  gitlab: { name: 'fakelab', prefix: '/gl', api: '/gl/api/v4' },
  gitea: { name: 'faketea', prefix: '/gt', api: '/gt/api/v1' },
  forgejo: { name: 'fakejo', prefix: '/fj', api: '/fj/api/v1' },
};

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'webhooks', name), 'utf8')) as Record<string, any>;

export interface AssetRef {
  name: string;
  url: string;
}

/** A plugin anchored on one fake forge instance, with its webhook secret. */
export interface WebhookPlugin {
  kind: ForgeKind;
  slug: string;
  /** `owner/repo` on the instance. */
  repo: string;
  repoUrl: string;
  secret: string;
}

/** The forge's own release event for `tag` with these assets, built from the real payload fixtures. */
export function releaseEvent(
  plugin: Pick<WebhookPlugin, 'kind' | 'repoUrl'>,
  tag: string,
  assets: AssetRef[],
): { event: string; body: Buffer } {
  const web = plugin.repoUrl;
  if (plugin.kind === 'gitlab') {
    const payload = fixture('gitlab-release-hook.create.json');
    payload.project.web_url = web;
    payload.tag = tag;
    payload.assets.links = assets.map((a, i) => ({ id: i + 1, external: true, link_type: 'other', name: a.name, url: a.url }));
    payload.assets.count = assets.length;
    return { event: 'release', body: Buffer.from(JSON.stringify(payload)) };
  }
  // Gitea and Forgejo send GitHub's shape.
  const payload = fixture(plugin.kind === 'github' ? 'github-release-published.with-assets.json' : 'gitea-release-published.json');
  const template = payload.release.assets[0];
  payload.repository.html_url = web;
  payload.release.tag_name = tag;
  payload.release.assets = assets.map((a, i) => ({ ...template, id: i + 1, name: a.name, browser_download_url: a.url }));
  return { event: 'release', body: Buffer.from(JSON.stringify(payload)) };
}

/**
 * A registry with four forge instances (GitHub, GitLab, Gitea, Forgejo shaped) on one fake forge,
 * on a database that outlives the app (restart tests), with the delivery worker driven by the
 * test (`deliverAndRun`, `runWorker`) unless told to start on its own.
 */
export class WebhookWorld {
  app!: TestApp;
  owner!: { jwt: string; userId: string; token: string };
  adminJwt = '';
  readonly env: Record<string, string>;
  private counter = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly forge: FakeForge,
    extraEnv: Record<string, string>,
    signIn: boolean,
  ) {
    const oauth = signIn ? { clientId: 'client', clientSecret: 'client-secret' } : {};
    this.env = {
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(forge.url).port}`,
      FORGES: JSON.stringify(
        FORGE_KINDS.map((kind) => ({
          name: INSTANCES[kind].name,
          type: kind,
          webUrl: `${forge.url}${INSTANCES[kind].prefix}`,
          apiUrl: `${forge.url}${INSTANCES[kind].api}`,
          ...oauth,
        })),
      ),
      ...extraEnv,
    };
  }

  /** `signIn`: the instances have OAuth credentials, so users can link identities (and claims need proof). */
  static async open(
    extraEnv: Record<string, string> = {},
    worker: Partial<DeliveryWorkerOptions> = {},
    signIn = false,
  ): Promise<WebhookWorld> {
    const world = new WebhookWorld(await createTestDatabase(), await new FakeForge().start(), extraEnv, signIn);
    await world.start(worker);
    const owner = await userWithSession(world.app, 'hook-owner');
    const token = await request(world.app.url)
      .post('/api/auth/me/tokens')
      .set('Authorization', `Bearer ${owner.jwt}`)
      .send({ name: 'ci', scopes: ['publish:*'] })
      .expect(201);
    world.owner = { jwt: owner.jwt, userId: owner.user.id, token: token.body.token as string };
    world.adminJwt = (await userWithSession(world.app, 'hook-admin', 'admin')).jwt;
    return world;
  }

  private async start(worker: Partial<DeliveryWorkerOptions>): Promise<void> {
    this.app = await startRegistry(this.db, this.env, {}, [
      { provide: DELIVERY_WORKER_OPTIONS, useValue: { ...DEFAULT_DELIVERY_WORKER_OPTIONS, autoStart: false, ...worker } },
    ]);
  }

  /** Stops the app and starts another on the same database. */
  async restart(worker: Partial<DeliveryWorkerOptions> = {}): Promise<void> {
    await this.app.close();
    await this.start(worker);
  }

  get worker(): DeliveryWorker {
    return this.app.app.get(DeliveryWorker);
  }

  runWorker(): Promise<number> {
    return this.worker.runOnce();
  }

  instanceName(kind: ForgeKind): string {
    return INSTANCES[kind].name;
  }

  webUrl(kind: ForgeKind): string {
    return `${this.forge.url}${INSTANCES[kind].prefix}`;
  }

  apiPath(kind: ForgeKind): string {
    return INSTANCES[kind].api;
  }

  /** Claims a fresh slug on `kind` with a CI push of 0.1.0 and gives it a webhook secret through the owner's rotate endpoint. */
  async plugin(kind: ForgeKind, slug = `hook-${kind}-${++this.counter}`): Promise<WebhookPlugin> {
    const repo = `acme/${slug}`;
    const repoUrl = `${this.forge.url}${INSTANCES[kind].prefix}/${repo}`;
    const asset = this.forge.asset(`/seed/${slug}/a.zip`, { size: 100 });
    await request(this.app.url)
      .post(`/api/publish/${slug}`)
      .set('Authorization', `Bearer ${this.owner.token}`)
      .send({
        manifest: manifestYaml({ name: slug, version: '0.1.0' }),
        manifestSource: 'plugin.yaml',
        version: '0.1.0',
        assets: [{ name: 'a.zip', url: asset }],
        repoUrl,
      })
      .expect(201);
    const rotated = await request(this.app.url)
      .post(`/api/plugins/${slug}/webhook-secret`)
      .set('Authorization', `Bearer ${this.owner.jwt}`)
      .send({})
      .expect(200);
    return { kind, slug, repo, repoUrl, secret: rotated.body.webhookSecret as string };
  }

  /** Serves a release's files on the fake forge: the manifest (when given) and one binary; returns their refs. */
  releaseFiles(plugin: WebhookPlugin, tag: string, manifest: string | null, binarySize = 4_000): AssetRef[] {
    const base = `/downloads/${plugin.repo}/${tag}`;
    const refs: AssetRef[] = [
      {
        name: `${plugin.slug}-linux-x64.tar.gz`,
        url: this.forge.asset(`${base}/${plugin.slug}-linux-x64.tar.gz`, { size: binarySize, seed: 7 }),
      },
    ];
    if (manifest !== null) {
      this.forge.route('GET', `${base}/plugin.yaml`, (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/yaml' });
        res.end(manifest);
      });
      refs.unshift({ name: 'plugin.yaml', url: `${this.forge.url}${base}/plugin.yaml` });
    }
    return refs;
  }

  manifest(plugin: WebhookPlugin, version: string, extra: Record<string, unknown> = {}): string {
    return manifestYaml({ name: plugin.slug, version, description: 'Delivered by a webhook', ...extra });
  }

  /** The forge's own release event for `tag` with these assets, built from the real payload fixtures. */
  releaseEvent(plugin: WebhookPlugin, tag: string, assets: AssetRef[]): { event: string; body: Buffer } {
    return releaseEvent(plugin, tag, assets);
  }

  /** A tag-created event (GitHub/Gitea `create`), which lists no assets. */
  tagEvent(plugin: WebhookPlugin, tag: string): { event: string; body: Buffer } {
    const payload = fixture(plugin.kind === 'github' ? 'github-create-tag.octokit.json' : 'gitea-create-tag.json');
    payload.repository.html_url = plugin.repoUrl;
    payload.ref = tag;
    return { event: 'create', body: Buffer.from(JSON.stringify(payload)) };
  }

  deliver(
    kind: ForgeKind,
    secret: string,
    delivery: { event: string; body: Buffer },
    headers: Record<string, string> = webhookHeaders(kind, secret, delivery.body, delivery.event),
  ): request.Test {
    // A string is sent as is; supertest would serialize a Buffer as JSON.
    return request(this.app.url).post('/api/webhooks/release').set(headers).send(delivery.body.toString('utf8'));
  }

  as(jwt: string, method: 'get' | 'post' | 'patch', path: string): request.Test {
    return request(this.app.url)[method](path).set('Authorization', `Bearer ${jwt}`);
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    await this.as(this.adminJwt, 'patch', '/api/admin/settings')
      .send({ [key]: value })
      .expect(200);
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.app.database.dataSource.query(sql, params);
  }

  async count(table: 'release' | 'webhook_delivery', slug?: string): Promise<number> {
    const rows = slug
      ? await this.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} t JOIN plugin p ON p.id = t.plugin_id WHERE p.slug = $1`, [
          slug,
        ])
      : await this.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    return Number(rows[0].n);
  }

  async close(): Promise<void> {
    await this.app?.close();
    await this.forge.stop();
    await this.db.drop();
  }
}
