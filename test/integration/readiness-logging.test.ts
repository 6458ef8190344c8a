/**
 * While the database is down, every readiness probe answers 503. That is the service reporting
 * its state, not a failure of the request: each probe has its access line at info, the state is
 * one warning a minute (not one per probe), and no stack trace (an orchestrator probing every few
 * seconds must not flood the log).
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { openDatabase, type DatabaseHandle } from '../../src/database/database-handle';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';
import { captureLog } from '../support/log-capture';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('readiness while the database is down, in the log', () => {
  const { stream, lines } = captureLog();
  let db: TestDatabase;
  let embedded: EmbeddedDatabase | null = null;
  let proxy: TcpProxy;
  let database: DatabaseHandle;
  let app: NestExpressApplication;

  beforeAll(async () => {
    db = await createTestDatabase();
    let databaseUrl: URL;
    if (db.kind === 'postgres') {
      databaseUrl = new URL(db.env.DATABASE_URL);
      proxy = new TcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    } else {
      // The embedded engine stays up; the app reaches it through the proxy like a server.
      embedded = await openEmbeddedDatabase({ dataDir: db.dataDir, mode: 'own' });
      proxy = new TcpProxy({ path: `${embedded.target.host}/.s.PGSQL.${embedded.target.port}` });
      databaseUrl = new URL('postgres://postgres@127.0.0.1/postgres');
    }
    databaseUrl.host = `127.0.0.1:${await proxy.start()}`;
    const config = loadConfig({ NODE_ENV: 'test', ...db.env, DATABASE_URL: databaseUrl.toString() });
    database = await openDatabase(config, { embeddedMode: 'own', migrate: false });
    app = await createApp({ config, database, logger: createLogger('info', stream) });
    await app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await proxy?.stop();
    await embedded?.stop();
    await db?.drop();
  });

  it('logs each 503 as one access line at info and the state as one warning, without a stack trace', async () => {
    await request(app.getHttpServer()).get('/health/ready').expect(200);
    await proxy.stop();

    const before = lines.length;
    for (const id of ['probe-1', 'probe-2', 'probe-3']) {
      const res = await request(app.getHttpServer()).get('/health/ready').set('X-Request-Id', id);
      expect(res.status).toBe(503);
    }
    // Background workers may log their own lost connection meanwhile; only the probes' lines count.
    const written = lines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => typeof entry.reqId === 'string' && entry.reqId.startsWith('probe-'));

    const access = written.filter((entry) => entry.req !== undefined);
    expect(access.map((entry) => entry.reqId)).toEqual(['probe-1', 'probe-2', 'probe-3']);
    for (const entry of access) expect(entry).toMatchObject({ level: 'info', req: { url: '/health/ready' }, res: { statusCode: 503 } });
    const warnings = written.filter((entry) => entry.level === 'warn');
    expect(warnings).toEqual([expect.objectContaining({ cause: 'not-ready', since: 0 })]);
    for (const entry of written) expect(entry).not.toHaveProperty('err');
    expect(lines.slice(before).join('\n')).not.toMatch(/stack| {4}at /);

    await proxy.start();
  });
});
