import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { FakeForge } from './fake-forge';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from './compiled-server';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * Compiled `registry serve` processes that tests kill with SIGKILL and start again on the same
 * database (PostgreSQL, or the embedded DATA_DIR), with a fake GitHub-shaped forge `fakehub`.
 */
export class CrashWorld {
  readonly env: Record<string, string>;
  private readonly servers: CompiledServer[] = [];

  private constructor(
    readonly db: TestDatabase,
    readonly forge: FakeForge,
    extraEnv: Record<string, string>,
  ) {
    this.env = {
      ...db.env,
      NODE_ENV: 'test',
      // Fixed, so every process (servers, CLI) reads the same sessions and stored secrets.
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      PORT: '0',
      FETCH_ALLOW_HOSTS: new URL(forge.url).host,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
      ...extraEnv,
    };
  }

  static async open(extraEnv: Record<string, string> = {}): Promise<CrashWorld> {
    return new CrashWorld(await createTestDatabase(), await new FakeForge().start(), extraEnv);
  }

  /** A started server and its URL. */
  async serve(): Promise<{ server: CompiledServer; url: string }> {
    const server = spawnServe(this.env);
    this.servers.push(server);
    return { server, url: await listening(server) };
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed, the lock file stays. */
  async kill(server: CompiledServer): Promise<void> {
    server.child.kill('SIGKILL');
    await server.exited;
  }

  /** A session and a publisher token (all slugs) for a new user, made with the CLI on the running server's database. */
  async userFor(url: string, login: string): Promise<{ jwt: string; token: string }> {
    expect((await registryCli(['users', 'create', login], this.env)).code).toBe(0);
    const jwt = (await registryCli(['sessions', 'issue', login], this.env)).stdout.trim();
    const res = await fetch(`${url}/api/auth/me/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci', scopes: ['publish:*'] }),
    });
    expect(res.status).toBe(201);
    return { jwt, token: ((await res.json()) as { token: string }).token };
  }

  /** A query straight on the database (on the embedded engine, through the running server's socket). */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client =
      this.db.kind === 'postgres'
        ? new Client({ connectionString: this.db.env.DATABASE_URL })
        : new Client({ host: join(this.db.dataDir, 'run'), port: 5432, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async close(): Promise<void> {
    for (const server of this.servers) await stopServe(server);
    await this.forge.stop();
    await this.db.drop();
  }
}
