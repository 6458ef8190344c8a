/**
 * The web pages' polish without a browser
 * (docs/web.md#accessibility-and-small-screens): a browser's unknown address gets the site's
 * HTML 404 page (the API keeps problem+json); the favicon comes from the branding; the plugin page
 * names the kind and extension values by their labels and leaves out what the forge did not tell.
 */
import request from 'supertest';
import { manifestYaml } from '../support/publishing';
import { catalogueWorld, publishAurora, type CatalogueWorld } from './catalogue-world';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('web front end: 404 page, favicon, plugin facts', () => {
  let world: CatalogueWorld;
  let url: string;
  const bearer = () => ({ Authorization: `Bearer ${world.admin.jwt}` });

  beforeAll(async () => {
    world = await catalogueWorld();
    url = world.w.app.url;
    await request(url)
      .put('/api/admin/kinds/theme')
      .set(bearer())
      .send({
        extensionFields: [
          { key: 'dark', type: 'boolean', label: 'Dark variant' },
          { key: 'mood', type: 'string', enum: ['calm', 'loud'] },
        ],
      })
      .expect(200);
    await publishAurora(world, ['1.0.0']);
  });

  afterAll(() => world?.w.close());

  it("answers a browser's unknown address with the site's 404 page, and anyone else with problem+json", async () => {
    const page = await request(url).get('/no/such/page').set('Accept', BROWSER_ACCEPT).expect(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.text).toContain('<title>Not found · Plugin Registry</title>');
    expect(page.text).toContain('<h1>Not found</h1>');
    expect(page.text).toContain('<form class="search" role="search"');
    const german = await request(url).get('/no/such/page').set('Accept', BROWSER_ACCEPT).set('Accept-Language', 'de').expect(404);
    expect(german.headers['content-type']).toMatch(/^text\/html/);

    for (const [path, accept] of [
      ['/api/no-such-thing', BROWSER_ACCEPT],
      ['/no/such/page', '*/*'],
      ['/no/such/page', 'application/json'],
    ] as const) {
      const problem = await request(url).get(path).set('Accept', accept).expect(404);
      expect([path, accept, problem.headers['content-type']]).toEqual([path, accept, 'application/problem+json; charset=utf-8']);
    }
    const bare = await request(url).get('/no/such/page').expect(404);
    expect(bare.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    // A POST is no page load: still problem+json.
    await request(url)
      .post('/no/such/page')
      .set('Accept', BROWSER_ACCEPT)
      .expect(404)
      .expect('Content-Type', /problem\+json/);
  });

  it("serves a favicon drawn from the branding, linked with a version that follows it, or the admin's own logo", async () => {
    const icon = await request(url)
      .get('/favicon.ico')
      .buffer(true)
      .parse((res, done) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => done(null, body));
      })
      .expect(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(icon.body).toContain('fill="#2563eb"');
    const link = async () =>
      /<link rel="icon" href="(\/favicon\.ico\?v=[0-9a-f]{12})"/.exec((await request(url).get('/').expect(200)).text)?.[1];
    const before = await link();
    expect(before).toBeDefined();
    await request(url).get(before!).expect(200).expect('Cache-Control', 'public, max-age=604800');

    await request(url).patch('/api/admin/branding').set(bearer()).send({ primaryColor: '#ffdd00' }).expect(200);
    const after = await link();
    expect(after).not.toBe(before);
    expect((await request(url).get('/favicon.ico').expect(200)).body.toString()).toContain('fill="#ffdd00"');

    const logo = `${url}/assets/logo.png`;
    await request(url).patch('/api/admin/branding').set(bearer()).send({ logoUrl: logo }).expect(200);
    await request(url).get('/favicon.ico').expect(302).expect('Location', logo);
    // A logo on another host is not loaded by the pages (Content-Security-Policy): the drawn icon stays.
    await request(url).patch('/api/admin/branding').set(bearer()).send({ logoUrl: 'https://cdn.example.org/logo.png' }).expect(200);
    await request(url).get('/favicon.ico').expect(200).expect('Content-Type', /svg/);
  });

  it('names the kind by its label and extension values by their field labels', async () => {
    const page = (await request(url).get('/plugins/aurora').expect(200)).text;
    expect(page).toContain('<dt>Kind</dt><dd><a href="/kinds/theme">Themes</a></dd>');
    expect(page).toContain('<dt>Dark variant</dt><dd>Yes</dd>');
    expect(page).toContain('<dt>Mood</dt><dd>calm</dd>');
    expect(page).toContain('<dt>Stars</dt><dd>1,234</dd>');
    const home = (await request(url).get('/').expect(200)).text;
    expect(home).toContain('<a href="/kinds/theme">Themes</a> · 0 downloads');
  });

  it('leaves out the repository figures a forge did not tell', async () => {
    const token = (await world.w.tokenFor('elsewhere-author', ['publish:*'])).token;
    world.w.forge.json('GET', '/api/v3/repos/elsewhere/quiet', { stargazers_count: 3 });
    await world.w
      .push(token, 'quiet', {
        manifest: manifestYaml({ name: 'quiet', version: '1.0.0', description: 'Its forge says little' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'quiet.zip', url: world.w.forge.asset('/elsewhere/quiet/1.0.0/quiet.zip', { size: 512 }) }],
        repoUrl: `${world.w.forge.url}/elsewhere/quiet`,
      })
      .expect(201);
    const stats = (await request(url).get('/api/plugins/quiet/stats').expect(200)).body;
    expect(stats).toMatchObject({ stars: 3, forks: null, watchers: null, lastPushAt: null });
    const page = (await request(url).get('/plugins/quiet').expect(200)).text;
    expect(page).toContain('<dt>Stars</dt><dd>3</dd>');
    expect(page).not.toMatch(/Forks|Watchers|Last push|unknown/);
  });
});
