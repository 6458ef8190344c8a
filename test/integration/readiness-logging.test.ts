/**
 * While the database is down, every readiness probe answers 503. That is the service reporting
 * its state, not a failure of the request: one warning line per probe, no stack trace (an
 * orchestrator probing every few seconds must not flood the log with error stacks).
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

  it('logs each 503 as one warning line without a stack trace', async () => {
    await request(app.getHttpServer()).get('/health/ready').expect(200);
    await proxy.stop();

    const before = lines.length;
    const res = await request(app.getHttpServer()).get('/health/ready').set('X-Request-Id', 'probe-1');
    expect(res.status).toBe(503);
    // Background workers may log their own lost connection meanwhile; only the probe's lines count.
    const written = lines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.reqId === 'probe-1');

    expect(written).toHaveLength(1);
    const [entry] = written;
    expect(entry).toMatchObject({ level: 'warn', req: { id: 'probe-1', url: '/health/ready' }, res: { statusCode: 503 } });
    expect(entry).not.toHaveProperty('err');
    expect(lines.slice(before).join('\n')).not.toMatch(/stack| {4}at /);

    await proxy.start();
  });
});
