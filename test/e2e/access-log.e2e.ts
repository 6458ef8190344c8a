/**
 * Logs an operator can read (docs/operating.md#logs), on the compiled server: one access line per
 * request at info with its id, method, path, status, length and duration and no headers; a page
 * view is one info line (the page's own loopback API calls are at debug, under the page's request
 * id); while the database is down, the 503s keep their access lines and the outage is a warning per
 * cause, not per request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';
import { listening, spawnServe, stopServe, type CompiledServer } from '../support/compiled-server';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

interface LogEntry {
  level: string;
  msg?: string;
  req?: { id?: string; method?: string; url?: string };
  res?: { statusCode?: number; length?: number };
  responseTime?: number;
  cause?: string;
  [key: string]: unknown;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('the access log of the compiled server', () => {
  let db: TestDatabase;
  let embedded: EmbeddedDatabase | null = null;
  let proxy: TcpProxy;
  let server: CompiledServer;
  let url: string;
  let dataDir: string;

  /** The JSON lines the server wrote from character `from` of its output on. */
  const linesFrom = (from: number) =>
    server
      .output()
      .slice(from)
      .split('\n')
      .filter((line) => line.startsWith('{'));
  const entriesFrom = (from: number) => linesFrom(from).map((line) => JSON.parse(line) as LogEntry);

  beforeAll(async () => {
    db = await createTestDatabase();
    // The server reaches its database through a proxy the test can cut (the embedded engine
    // is opened here and served like a PostgreSQL server).
    let databaseUrl: URL;
    if (db.kind === 'postgres') {
      databaseUrl = new URL(db.env.DATABASE_URL);
      proxy = new TcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    } else {
      embedded = await openEmbeddedDatabase({ dataDir: db.dataDir, mode: 'own' });
      proxy = new TcpProxy({ path: `${embedded.target.host}/.s.PGSQL.${embedded.target.port}` });
      databaseUrl = new URL('postgres://postgres@127.0.0.1/postgres');
    }
    databaseUrl.host = `127.0.0.1:${await proxy.start()}`;
    dataDir = mkdtempSync(join(tmpdir(), 'registry-access-log-'));
    const redis: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
    server = spawnServe({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl.toString(),
      ...redis,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      PORT: '0',
    });
    url = await listening(server);
  });

  afterAll(async () => {
    if (server) await stopServe(server);
    await proxy?.stop();
    await embedded?.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs a page view as one info line; its API calls are at debug under the same request id', async () => {
    const from = server.output().length;
    const page = await fetch(`${url}/plugins`, { headers: { 'X-Request-Id': 'page-view-1' } });
    expect(page.status).toBe(200);
    await page.text();
    await settle();
    const entries = entriesFrom(from);
    const info = entries.filter((e) => e.level === 'info');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({
      msg: 'request completed',
      req: { id: 'page-view-1', method: 'GET', url: '/plugins' },
      res: { statusCode: 200 },
    });
    expect(info[0].res?.length).toBeGreaterThan(0);
    const internal = entries.filter((e) => e.level === 'debug' && e.req?.url?.startsWith('/api/'));
    expect(internal.length).toBeGreaterThan(0);
    for (const call of internal) expect(call.req?.id).toBe('page-view-1');
  });

  it('keeps an access line small: no header, no cookie, no CSP', async () => {
    const from = server.output().length;
    const res = await fetch(`${url}/api/plugins?limit=5`, {
      headers: {
        Cookie: 'registry_session=cookie-value-never-logged',
        Authorization: 'Bearer prt_neverlogged0000000000000000000000000000',
        'User-Agent': 'agent-never-logged',
      },
    });
    await res.text();
    await fetch(`${url}/`).then((r) => r.text());
    await settle();
    const lines = linesFrom(from).filter((line) => line.includes('"request completed"'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(Buffer.byteLength(line)).toBeLessThan(400);
      expect(line).not.toMatch(/cookie|authorization|content-security-policy|default-src|never-logged|headers/i);
      const entry = JSON.parse(line) as LogEntry;
      expect(Object.keys(entry.req ?? {}).sort()).toEqual(['id', 'method', 'url']);
      expect(typeof entry.responseTime).toBe('number');
    }
  });

  it('summarises the 503s of a database outage by cause, not one warning per request', async () => {
    await proxy.stop();
    const from = server.output().length;
    const paths = ['/api/plugins/some-plugin', '/api/plugins/some-plugin/releases/latest', '/health/ready', '/api/requests'];
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      for (const path of paths) {
        const res = await fetch(`${url}${path}`, { headers: { 'X-Request-Id': `outage-${i}-${paths.indexOf(path)}` } });
        await res.text();
        statuses.push(res.status);
      }
    }
    await settle();
    const entries = entriesFrom(from);
    const unavailable = statuses.filter((s) => s === 503).length;
    expect(unavailable).toBeGreaterThanOrEqual(30);
    // Every request keeps its access line, at info.
    const access = entries.filter((e) => e.req?.id?.startsWith('outage-'));
    expect(access.filter((e) => e.res?.statusCode === 503).every((e) => e.level === 'info')).toBe(true);
    expect(access.filter((e) => e.res?.statusCode === 503)).toHaveLength(unavailable);
    // One warning per cause, whatever the number of requests; no request has a warning line of its own.
    const warnings = entries.filter((e) => e.level === 'warn' || e.level === 'error');
    const causes = warnings.filter((e) => typeof e.cause === 'string').map((e) => e.cause);
    expect(new Set(causes).size).toBe(causes.length);
    expect(causes).toEqual(expect.arrayContaining(['database-unavailable', 'not-ready']));
    expect(warnings.filter((e) => e.req !== undefined)).toEqual([]);
    // Background workers (page builds, the catalogue index, webhook deliveries) report the first
    // failed round of the outage, then one a minute: none says the same thing twice here.
    const background = warnings.filter((e) => e.cause === undefined);
    const said = background.map((e) => `${e.context ?? ''} ${String(e.msg).replace(/\d+/g, 'N')}`);
    expect(said.length).toBeLessThanOrEqual(12);
    expect(said.filter((line, i) => said.indexOf(line) !== i)).toEqual([]);

    await proxy.start();
    const deadline = Date.now() + 30_000;
    let ready = 0;
    while (Date.now() < deadline && ready !== 200) {
      ready = (await fetch(`${url}/health/ready`)).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(ready).toBe(200);
  });
});
