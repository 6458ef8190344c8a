import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from './compiled-server';
import { FakeForge } from './fake-forge';
import { manifestYaml } from './publishing';
import { createTestDatabase, type TestDatabase } from './test-database';

/** Two instances need a shared database and Redis: only the Postgres+Redis pass has both. */
export const TWO_INSTANCES_SKIP_REASON =
  process.env.DATABASE_URL && process.env.REDIS_URL
    ? null
    : 'two compiled instances need DATABASE_URL and REDIS_URL (the Postgres+Redis pass)';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * Two compiled `registry serve` processes (A and B) on one fresh Postgres database and one Redis,
 * with a GitHub-shaped fake forge (`fakehub`) serving assets and repository records.
 */
/** The environment a compiled server needs on `db`, with `forge` as its one (GitHub-shaped) forge. */
export function compiledServerEnv(db: TestDatabase, forge: FakeForge): Record<string, string> {
  return {
    ...db.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: '0',
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    FETCH_ALLOW_HOSTS: new URL(forge.url).host,
    FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
  };
}

export class TwoInstances {
  readonly urls: [string, string] = ['', ''];
  private readonly servers: CompiledServer[] = [];
  private users = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly forge: FakeForge,
    readonly env: Record<string, string>,
  ) {}

  static async start(): Promise<TwoInstances> {
    const db = await createTestDatabase();
    const forge = await new FakeForge().start();
    const env = compiledServerEnv(db, forge);
    const world = new TwoInstances(db, forge, env);
    // Both start at once, as a deploy would start them; the template database is migrated already.
    world.servers.push(spawnServe(env), spawnServe(env));
    [world.urls[0], world.urls[1]] = await Promise.all(world.servers.map((server) => listening(server)));
    return world;
  }

  async stop(): Promise<void> {
    for (const server of this.servers) await stopServe(server);
    await this.forge.stop();
    await this.db.drop();
  }

  /** A fresh user's session JWT (admin when asked), made through the CLI like an operator would. */
  async session(admin = false): Promise<{ login: string; jwt: string }> {
    const login = `user-${++this.users}-${randomBytes(3).toString('hex')}`;
    const created = await registryCli(['users', 'create', login, ...(admin ? ['--admin'] : [])], this.env);
    if (created.code !== 0) throw new Error(`users create failed: ${created.stderr}`);
    const issued = await registryCli(['sessions', 'issue', login], this.env);
    if (issued.code !== 0) throw new Error(`sessions issue failed: ${issued.stderr}`);
    return { login, jwt: issued.stdout.trim() };
  }

  /** A publisher token (`publish:*`) for the session's user, made through instance `via`. */
  async publisherToken(jwt: string, via = 0): Promise<{ id: string; token: string }> {
    const created = await this.call(via, 'POST', '/api/auth/me/tokens', { jwt, body: { name: 'ci', scopes: ['publish:*'] } });
    if (created.status !== 201) throw new Error(`token create answered ${created.status}`);
    return { id: created.body.row.id, token: created.body.token };
  }

  async call(
    via: number,
    method: string,
    path: string,
    options: { jwt?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.jwt) headers.Authorization = `Bearer ${options.jwt}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.urls[via]}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: the text is the body.
    }
    return { status: res.status, headers: res.headers, body };
  }

  /** A CI push of `slug@version` through instance `via`, with one small asset on the fake forge. */
  push(via: number, token: string, slug: string, version: string): Promise<HttpAnswer> {
    const asset = this.forge.asset(`/files/${slug}/${version}/a.zip`, { size: 200 });
    return this.call(via, 'POST', `/api/publish/${slug}`, {
      jwt: token,
      body: {
        manifest: manifestYaml({ name: slug, version }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: 'a.zip', url: asset }],
        repoUrl: `${this.forge.url}/acme/${slug}`,
      },
    });
  }

  async setSettings(adminJwt: string, values: Record<string, unknown>): Promise<void> {
    const answer = await this.call(0, 'PATCH', '/api/admin/settings', { jwt: adminJwt, body: values });
    if (answer.status !== 200) throw new Error(`settings answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }

  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.db.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
}
