import type { Logger } from 'pino';
import request from 'supertest';
import { FakeForge } from './fake-forge';
import { linkedUserWithSession, userWithSession } from './sessions';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

export interface PublishWorld {
  app: TestApp;
  forge: FakeForge;
  /** A publisher token for a fresh user, with the given scopes. */
  tokenFor(login: string, scopes: string[]): Promise<{ token: string; userId: string; jwt: string }>;
  /** The same for a user signed in through the forge instance `fakehub` with `accessToken`. */
  linkedTokenFor(login: string, accessToken: string, scopes: string[]): Promise<{ token: string; userId: string; jwt: string }>;
  push(token: string | null, slug: string, body: Record<string, unknown>): request.Test;
  /** Rows of the table, for "nothing else changed" assertions. */
  count(table: 'plugin' | 'release' | 'plugin_owner'): Promise<number>;
  audit(action?: string): Promise<{ action: string; slug: string | null; details: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

/** A registry wired to a fake GitHub-shaped forge on loopback (allow-listed for fetches). */
/** The fake forge instance `fakehub`: GitHub-shaped unless told otherwise; sign-in when given OAuth credentials. */
export interface FakeForgeInstance {
  type?: 'github' | 'gitlab' | 'gitea' | 'forgejo';
  /** Where its API lives below the forge's URL (GitHub Enterprise's /api/v3 by default). */
  apiPath?: string;
  clientId?: string;
  clientSecret?: string;
  /** Its CI OIDC issuer (trusted publishing). */
  oidcIssuer?: string;
  /** More instances for FORGES, after fakehub. */
  extraForges?: Record<string, unknown>[];
  /** Lists the forge in IMAGE_PROXY_ALLOW_HOSTS too, as an operator whose READMEs' relative images live on an internal forge would. */
  proxyImagesFromForge?: boolean;
}

export async function publishWorld(
  env: Record<string, string> = {},
  instance: FakeForgeInstance = {},
  logger?: Logger,
  options: TestAppOptions = {},
): Promise<PublishWorld> {
  const forge = await new FakeForge().start();
  const port = new URL(forge.url).port;
  const app = await startTestApp(
    {
      FORGES: JSON.stringify([
        {
          name: 'fakehub',
          type: instance.type ?? 'github',
          webUrl: forge.url,
          apiUrl: `${forge.url}${instance.apiPath ?? '/api/v3'}`,
          ...(instance.clientId ? { clientId: instance.clientId, clientSecret: instance.clientSecret } : {}),
          ...(instance.oidcIssuer ? { oidcIssuer: instance.oidcIssuer } : {}),
        },
        ...(instance.extraForges ?? []),
      ]),
      ...env,
      // Hosts given here are allowed besides the fake forge's.
      FETCH_ALLOW_HOSTS: [`127.0.0.1:${port}`, env.FETCH_ALLOW_HOSTS].filter(Boolean).join(','),
      ...(instance.proxyImagesFromForge
        ? { IMAGE_PROXY_ALLOW_HOSTS: [`127.0.0.1:${port}`, env.IMAGE_PROXY_ALLOW_HOSTS].filter(Boolean).join(',') }
        : {}),
    },
    undefined,
    logger,
    options,
  );
  const query = (sql: string, params: unknown[] = []) => app.database.dataSource.query(sql, params);
  const tokenOf = async ({ user, jwt }: { user: { id: string }; jwt: string }, scopes: string[]) => {
    const res = await request(app.url)
      .post('/api/auth/me/tokens')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ name: 'ci', scopes })
      .expect(201);
    return { token: res.body.token as string, userId: user.id, jwt };
  };
  return {
    app,
    forge,
    async tokenFor(login, scopes) {
      return tokenOf(await userWithSession(app, login), scopes);
    },
    async linkedTokenFor(login, accessToken, scopes) {
      return tokenOf(
        await linkedUserWithSession(app, 'fakehub', login, String(100 + Math.floor(Math.random() * 1e9)), accessToken),
        scopes,
      );
    },
    push(token, slug, body) {
      const req = request(app.url).post(`/api/publish/${slug}`);
      return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
    },
    async count(table) {
      return Number((await query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
    },
    async audit(action) {
      return action
        ? query('SELECT action, slug, details FROM audit_entry WHERE action = $1 ORDER BY created_at', [action])
        : query(`SELECT action, slug, details FROM audit_entry WHERE action LIKE 'plugin.%' ORDER BY created_at`);
    },
    async close() {
      await app.close();
      await forge.stop();
    },
  };
}

/** A manifest in YAML with the given fields over a minimal valid base. */
export function manifestYaml(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n');
}
