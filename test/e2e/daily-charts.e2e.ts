/**
 * The daily series over HTTP on the real AppModule: GET /api/plugins/:slug/downloads (public,
 * cacheable, problem+json on bad input), GET /api/admin/activity (admins only), and the charts
 * the plugin page and the admin home render from them, in the HTML the server sends.
 */
import request from 'supertest';
import { utcDay } from '../../src/lib/charts/days';
import { DownloadCounter } from '../../src/catalogue/plugins/download-counter';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

describe('daily charts', () => {
  let w: PublishWorld;
  let admin: string;
  let user: string;
  const today = () => utcDay(new Date());

  const publish = (token: string, slug: string, version: string) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, description: 'Counted <b>daily</b>' }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 500 }) }],
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);

  beforeAll(async () => {
    w = await publishWorld();
    const { token } = await w.tokenFor('chart-author', ['publish:*']);
    await publish(token, 'charted', '1.0.0');
    await publish(token, 'charted', '1.1.0');
    await publish(token, 'quiet', '1.0.0');
    for (const version of ['1.0.0', '1.0.0', '1.0.0', '1.1.0'])
      await request(w.app.url).get(`/api/plugins/charted/releases/${version}/assets/charted.zip`).expect(302);
    // A HEAD resolves the link and counts nothing, today as ever.
    await request(w.app.url).head('/api/plugins/charted/releases/1.0.0/assets/charted.zip').expect(302);
    await w.app.app.get(DownloadCounter).flush();
    // History from before this process, as earlier days' writes left it.
    const [{ id }] = await w.app.database.dataSource.query(`SELECT id FROM plugin WHERE slug = 'charted'`);
    await w.app.database.dataSource.query(
      `INSERT INTO plugin_download_day (plugin_id, day, downloads) VALUES ($1, $2::date - 10, 1234), ($1, $2::date - 200, 9)`,
      [id, today()],
    );
    admin = (await userWithSession(w.app, 'chart-admin', 'admin')).jwt;
    user = (await userWithSession(w.app, 'chart-user')).jwt;
  });
  afterAll(() => w?.close());

  describe('GET /api/plugins/:slug/downloads', () => {
    it('answers 90 days ending today, every day present, publicly cacheable with an ETag', async () => {
      const res = await request(w.app.url).get('/api/plugins/charted/downloads').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.body.slug).toBe('charted');
      expect(res.body.version).toBeNull();
      expect(res.body.to).toBe(today());
      expect(res.body.series).toHaveLength(90);
      expect(res.body.series[0].day).toBe(res.body.from);
      expect(res.body.series.at(-1)).toEqual({ day: today(), downloads: 4 });
      expect(res.body.series.at(-11).downloads).toBe(1234);
      expect(res.body.total).toBe(1238);
      await request(w.app.url).get('/api/plugins/charted/downloads').set('If-None-Match', res.headers.etag).expect(304);
    });

    it('narrows to one release, and reaches back as far as days asks', async () => {
      const release = await request(w.app.url).get('/api/plugins/charted/downloads?version=1.0.0&days=1').expect(200);
      expect(release.body).toEqual({
        slug: 'charted',
        version: '1.0.0',
        from: today(),
        to: today(),
        total: 3,
        series: [{ day: today(), downloads: 3 }],
      });
      const year = await request(w.app.url).get('/api/plugins/charted/downloads?days=366').expect(200);
      expect(year.body.series).toHaveLength(366);
      expect(year.body.total).toBe(1247);
      const quiet = await request(w.app.url).get('/api/plugins/quiet/downloads?days=7').expect(200);
      expect(quiet.body.total).toBe(0);
      expect(quiet.body.series.map((p: { downloads: number }) => p.downloads)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    });

    it.each([['0'], ['367'], ['1.5'], ['1e2'], ['-1'], ['ninety']])('refuses days=%s with a problem naming days', async (days) => {
      const res = await request(w.app.url).get(`/api/plugins/charted/downloads?days=${days}`).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: '/days' })]);
    });

    it('answers problems for an unknown parameter, a slug that cannot exist, and what is not there', async () => {
      expect((await request(w.app.url).get('/api/plugins/charted/downloads?weeks=3').expect(400)).headers['content-type']).toMatch(
        /^application\/problem\+json/,
      );
      await request(w.app.url).get('/api/plugins/Bad_Slug/downloads').expect(400);
      const missing = await request(w.app.url).get('/api/plugins/nothing-here/downloads').expect(404);
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
      await request(w.app.url).get('/api/plugins/charted/downloads?version=9.9.9').expect(404);
    });

    it('is in the API description, public, with its 4xx answers', async () => {
      const doc = (await request(w.app.url).get('/openapi/json').expect(200)).body;
      const operation = doc.paths['/api/plugins/{slug}/downloads'].get;
      expect(operation.summary).toBeTruthy();
      expect(operation.security).toEqual([]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
      expect(doc.paths['/api/admin/activity'].get.summary).toBeTruthy();
    });
  });

  describe('GET /api/admin/activity', () => {
    it('is for admins only, never stored by a cache, and counts today’s publishes', async () => {
      await request(w.app.url).get('/api/admin/activity').expect(401);
      await request(w.app.url).get('/api/admin/activity').set('Authorization', `Bearer ${user}`).expect(403);
      const res = await request(w.app.url).get('/api/admin/activity').set('Authorization', `Bearer ${admin}`).expect(200);
      expect(res.headers['cache-control']).toMatch(/no-store/);
      expect(res.body.to).toBe(today());
      expect(res.body.publishes.series).toHaveLength(30);
      expect(res.body.publishes.series.at(-1)).toEqual({ day: today(), count: 3 });
      expect(res.body.failedDeliveries.total).toBe(0);
      await request(w.app.url).get('/api/admin/activity?days=400').set('Authorization', `Bearer ${admin}`).expect(400);
    });
  });

  describe('the pages', () => {
    it('draws the plugin page’s downloads chart into its HTML: an image with a name, a summary and a hidden table', async () => {
      const res = await request(w.app.url).get('/plugins/charted').expect(200);
      expect(res.text).toContain('<h2 id="downloads-chart-heading">Downloads, last 90 days</h2>');
      expect(res.text).toMatch(
        /<svg class="chart-svg"[^>]* role="img" aria-labelledby="downloads-chart-title" aria-describedby="downloads-chart-desc"/,
      );
      expect(res.text).toContain('<title id="downloads-chart-title">charted: downloads per day</title>');
      expect(res.text).toContain('Downloads in the last 90 days: 1,238.');
      expect(res.text).toMatch(/Busiest day: [A-Z][a-z]{2} \d{1,2}, \d{4} \(1,234\)\./);
      expect(res.text).toMatch(new RegExp(`<th scope="row"><time datetime="${today()}">[^<]+</time></th><td>4</td>`));
      const figure = res.text.slice(res.text.indexOf('<figure class="day-chart"'), res.text.indexOf('</figure>'));
      // Only the days with downloads are rows: a screen reader does not read 88 zeros.
      expect(figure.match(/<th scope="row">/g)).toHaveLength(2);
      // Colours come from the stylesheet: nothing in the chart needs an inline style (or loads anything).
      expect(figure).not.toMatch(/ style=|<script|href=/);
    });

    it('shows the admin home three activity charts above the plugin list', async () => {
      const res = await request(w.app.url).get('/admin').set('Cookie', `registry_session=${admin}`).expect(200);
      expect(res.text).toContain('<h2 id="admin-activity-heading">Activity, last 30 days</h2>');
      for (const key of ['publishes', 'failedDeliveries', 'ingestErrors'])
        expect(res.text).toContain(`aria-labelledby="activity-${key}-title"`);
      expect(res.text).toContain('Total in the last 30 days: 3.');
      expect(res.text.indexOf('admin-activity-heading')).toBeLessThan(res.text.indexOf('admin-plugin-search'));
      // The plugins section itself has no charts.
      expect((await request(w.app.url).get('/admin/plugins').set('Cookie', `registry_session=${admin}`).expect(200)).text).not.toContain(
        'chart-svg',
      );
    });
  });
});
