import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { configureHttp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/common/clock';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { openDatabase, type DatabaseHandle } from '../../src/database/database-handle';
import { StatsRepository } from '../../src/catalogue/stats/stats.repository';
import { STATS_TTL_MS } from '../../src/catalogue/stats/stats.service';
import { UsersRepository } from '../../src/platform/users/users.repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/** Time stands still until the test moves it. */
class ManualClock extends Clock {
  private readonly startMs = Date.now();
  offsetMs = 0;
  now(): Date {
    return new Date(this.startMs + this.offsetMs);
  }
}

describe('GET /api/stats', () => {
  let db: TestDatabase;
  let database: DatabaseHandle;
  let app: NestExpressApplication;
  const clock = new ManualClock();
  const sql = (text: string, params: unknown[] = []) => database.dataSource.query(text, params);

  async function plugin(slug: string, downloads: number, ownerIds: string[]) {
    const [row] = await sql(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity, downloads) VALUES ($1, $1, $2, $3, $4) RETURNING id`,
      [slug, `https://example.org/o/${slug}`, `example.org/o/${slug}`, downloads],
    );
    for (const owner of ownerIds) await sql('INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)', [row.id, owner]);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', ...db.env });
    database = await openDatabase(config, { embeddedMode: 'own', migrate: true });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, database)] })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false, bodyParser: false });
    configureHttp(app, config, createLogger('silent'));
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await db?.drop();
  });

  it('counts plugins, downloads, distinct owners, open requests and enabled kinds, and shows a change in the next answer', async () => {
    const users = new UsersRepository(database.dataSource);
    const [ann, ben, cat] = await Promise.all(
      ['ann', 'ben', 'cat'].map((login) => users.createLocal({ login, email: null, role: 'user' })),
    );
    await plugin('alpha', 10, [ann.id, ben.id]);
    await plugin('beta', 5, [ann.id]);
    await plugin('gamma', 2 ** 33, [cat.id]);
    await sql(`INSERT INTO kind (key, label, enabled) VALUES ('theme', 'Themes', true), ('tool', 'Tools', true), ('old', 'Old', false)`);
    await sql(
      `INSERT INTO plugin_request (title, status) VALUES ('one', 'open'), ('two', 'open'), ('three', 'closed'), ('four', 'fulfilled')`,
    );

    const first = await request(app.getHttpServer()).get('/api/stats').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.body).toEqual({ plugins: 3, downloads: 15 + 2 ** 33, authors: 3, requests: 2, kinds: 2 });

    // The clock stands still: nothing expired, yet every change shows at once.
    await plugin('delta', 1, [ann.id]);
    await sql(`INSERT INTO plugin_request (title) VALUES ('five')`);
    await sql(`UPDATE kind SET enabled = false WHERE key = 'tool'`);
    expect((await request(app.getHttpServer()).get('/api/stats').expect(200)).body).toEqual({
      plugins: 4,
      downloads: 16 + 2 ** 33,
      authors: 3,
      requests: 3,
      kinds: 1,
    });
    await sql(`UPDATE plugin SET downloads = downloads + 4 WHERE slug = 'alpha'`);
    expect((await request(app.getHttpServer()).get('/api/stats').expect(200)).body.downloads).toBe(20 + 2 ** 33);
    await sql(`DELETE FROM plugin WHERE slug = 'delta'`);
    expect((await request(app.getHttpServer()).get('/api/stats').expect(200)).body).toMatchObject({ plugins: 3, downloads: 19 + 2 ** 33 });
  });

  it('computes once for callers that arrive together after the answer expired, not again within 60 s while the catalogue stands still', async () => {
    const totals = jest.spyOn(app.get(StatsRepository), 'catalogueTotals');
    clock.offsetMs += STATS_TTL_MS;
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(app.getHttpServer()).get('/api/stats').expect(200)));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    clock.offsetMs += STATS_TTL_MS - 1;
    await request(app.getHttpServer()).get('/api/stats').expect(200);
    expect(totals).toHaveBeenCalledTimes(1);
    // A change to the catalogue is a new entry, computed at once (and once).
    await sql(`UPDATE plugin SET downloads = downloads + 1 WHERE slug = 'beta'`);
    await Promise.all(Array.from({ length: 5 }, () => request(app.getHttpServer()).get('/api/stats').expect(200)));
    expect(totals).toHaveBeenCalledTimes(2);
    totals.mockRestore();
  });
});
