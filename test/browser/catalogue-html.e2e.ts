/**
 * The catalogue pages as the server sends them (docs/web.md), before any script: what search
 * engines and link previews read, escaping of whatever a manifest says, and the 404s.
 */
import request from 'supertest';
import { auroraPictures, catalogueWorld, HOSTILE_DESCRIPTION, publishAurora, type CatalogueWorld } from './catalogue-world';

describe('web front end: catalogue pages without JavaScript', () => {
  let world: CatalogueWorld;
  let url: string;
  const page = (path: string, headers: Record<string, string> = {}) => request(url).get(path).set(headers);

  beforeAll(async () => {
    world = await catalogueWorld();
    url = world.w.app.url;
    await publishAurora(world);
    await world.publish('hostile', '1.0.0', { description: HOSTILE_DESCRIPTION, category: '"><b>cat</b>', tags: ['<i>x</i>'] });
    await world.publish('solar', '0.9.0', { description: 'A bright theme', kind: 'theme', dark: false, mood: 'loud' });
    // Enough for a second page, straight into the table: publishing each would cost seconds.
    for (let i = 0; i < 21; i += 1) {
      await world.w.app.database.dataSource.query(
        `INSERT INTO plugin (slug, name, repo_url, repo_identity, description, category, tags, latest_version, latest_release_at, created_at)
         VALUES ($1, $1, $2, $2, 'Padding for the second page', 'Filler', '[]'::jsonb, '1.0.0', now(), now())`,
        [`filler-${String(i).padStart(2, '0')}`, `https://git.example.org/o/filler-${i}`],
      );
    }
  });
  afterAll(() => world?.w.close());

  it('a plugin page carries its title, description, README, links and Open Graph tags', async () => {
    const res = await page('/plugins/aurora', { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' }).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const body = res.text;
    expect(body).toContain('<title>aurora · Plugin Registry</title>');
    expect(body).toContain('<meta name="description" content="A calm dark theme for late nights">');
    expect(body).toContain('<meta property="og:type" content="article">');
    expect(body).toContain('<meta property="og:title" content="aurora">');
    expect(body).toContain('<meta property="og:description" content="A calm dark theme for late nights">');
    expect(body).toContain(`<meta property="og:image" content="${auroraPictures(world).icon}">`);
    expect(body).toContain('<h3>Aurora in English</h3>');
    expect(body).toMatch(/<a href="\/plugins\/aurora\?locale=de" hreflang="de" lang="de">de<\/a>/);
    expect(body).toMatch(/<a href="\/plugins\/aurora\?locale=en" hreflang="en" lang="en" aria-current="true">en<\/a>/);
    for (const link of [
      `${world.w.forge.url}/acme/aurora`,
      'https://aurora.example/',
      'https://aurora.example/docs',
      'https://aurora.example/issues',
      'mailto:help@aurora.example',
      auroraPictures(world).screenshot,
    ]) {
      expect(body).toContain(`href="${link}"`);
    }
    // Downloads for this Linux visitor first, then every platform; the yanked version marked.
    expect(body).toMatch(/class="button download"[^>]*>Download for linux-x64</);
    for (const key of ['darwin-arm64', 'linux-x64', 'win32-x64']) expect(body).toContain(`<th scope="row">${key}</th>`);
    expect(body).toMatch(
      /<tr class="yanked"><th scope="row"><span class="number">1\.1\.0<\/span> <span class="badge yanked"[^>]*>Yanked<\/span><br><span class="meta">Broke the status bar<\/span>/,
    );
    // Integrity: the signing key's id, every file's hash, the verify command, the key set.
    const release = (await request(url).get('/api/plugins/aurora/releases/1.2.0').expect(200)).body;
    const kid = JSON.parse(Buffer.from(release.integrity.jws.split('.')[0], 'base64url').toString()).kid;
    expect(body).toContain(`<code>${kid}</code>`);
    for (const asset of release.integrity.assets) expect(body).toContain(`<code class="sha">${asset.sha256}</code>`);
    expect(body).toContain(`registry verify aurora@1.2.0 --registry ${url}`);
    expect(body).toContain('href="/.well-known/registry-key.json"');
    // Facts, and the repository's stats from the forge.
    expect(body).toContain('<dd>MIT</dd>');
    expect(body).toContain('<dd>&gt;=2.0.0</dd>');
    expect(body).toContain('<dd>1,234</dd>');
    expect(body).not.toMatch(/<script(?![^>]*\b(src=|type="application\/json"))/);
  });

  it('offers a Mac visitor the Mac build, and the README in the language asked for', async () => {
    const mac = await page('/plugins/aurora', { 'User-Agent': 'Mozilla/5.0 (Macintosh; arm64 Mac OS X 14_5)' }).expect(200);
    expect(mac.text).toMatch(/>Download for darwin-arm64</);
    const german = await page('/plugins/aurora?locale=de').expect(200);
    expect(german.text).toContain('<h3>Aurora auf Deutsch</h3>');
    expect(german.text).toMatch(/<div class="readme" lang="de">/);
    expect(german.text).toMatch(/hreflang="de" lang="de" aria-current="true"/);
  });

  it('escapes a hostile description, category and tag everywhere they appear', async () => {
    for (const path of ['/plugins/hostile', '/plugins?q=hostile']) {
      const body = (await page(path).expect(200)).text;
      expect(body).not.toContain('<script>alert');
      expect(body).not.toContain('<img src=x');
      expect(body).not.toContain('<b>cat</b>');
      expect(body).not.toContain('<i>x</i>');
      expect(body).toContain(
        '&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;',
      );
    }
    const detail = (await page('/plugins/hostile').expect(200)).text;
    expect(detail).toContain('<meta name="description" content="&lt;script&gt;alert(&quot;pwned&quot;)');
    expect(detail).toContain('&quot;&gt;&lt;b&gt;cat&lt;/b&gt;');
  });

  it('answers 404 pages for an unknown plugin, kind or CMS page, and a malformed slug', async () => {
    for (const path of ['/plugins/no-such-plugin', '/plugins/NOT%20A%20SLUG', '/kinds/no-such-kind', '/pages/no-such-page']) {
      const res = await page(path).expect(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<h1>Not found</h1>');
    }
  });

  it('browses with filters, ext.* fields of the chosen kind, a result count and pagination', async () => {
    const all = (await page('/plugins').expect(200)).text;
    expect(all).toContain('24 plugins found');
    expect(all).toMatch(/<a href="\/plugins\?page=2" rel="next">Next<\/a>/);
    expect(all).toContain('Page 1 of 2');
    expect(all).not.toContain('id="ext-dark"');
    const second = (await page('/plugins?category=Filler&page=2').expect(200)).text;
    expect(second).toContain('21 plugins found');
    expect(second).toMatch(/<a href="\/plugins\?category=Filler&amp;page=1" rel="prev">Previous<\/a>/);
    const themes = (await page('/plugins?kind=theme').expect(200)).text;
    expect(themes).toContain('2 plugins found');
    expect(themes).toMatch(/<select id="ext-dark" name="ext.dark">/);
    expect(themes).toMatch(/<option value="calm">calm<\/option>/);
    const dark = (await page('/plugins?kind=theme&ext.dark=true').expect(200)).text;
    expect(dark).toContain('1 plugin found');
    expect(dark).toContain('href="/plugins/aurora"');
    expect(dark).not.toContain('href="/plugins/solar"');
    expect(dark).toMatch(/<option value="true" selected>/);
    const verified = (await page('/plugins?verified=1&q=aurora').expect(200)).text;
    expect(verified).toContain('0 plugins found');
    expect(verified).toContain('<input id="filter-verified" name="verified" type="checkbox" value="1" checked>');
    const bad = (await page('/plugins?kind=theme&ext.mood=' + 'x'.repeat(201)).expect(200)).text;
    expect(bad).toContain('Some filters are not valid:');
  });

  it('shows a kind with its declared fields and its plugins', async () => {
    const body = (await page('/kinds/theme').expect(200)).text;
    expect(body).toContain('<h1>Themes</h1>');
    expect(body).toContain('Colour schemes for the editor');
    expect(body).toContain('<th scope="row"><code>mood</code></th><td><code>string</code></td><td>No</td><td>calm, loud</td>');
    expect(body).toContain('href="/plugins/aurora"');
    expect(body).toContain('href="/plugins/solar"');
    expect(body).not.toContain('href="/plugins/hostile"');
  });

  it('renders a CMS page in the visitor’s language, and hides the wishlist when its flag is off', async () => {
    const admin = { Authorization: `Bearer ${world.admin.jwt}` };
    await request(url)
      .post('/api/admin/pages')
      .set(admin)
      .send({
        slug: 'about',
        locale: 'en',
        title: 'About us',
        markdown: '# Hello\n\n<script>x()</script>We **host** plugins.',
        published: true,
      })
      .expect(201);
    const about = (await page('/pages/about').expect(200)).text;
    expect(about).toContain('<title>About us · Plugin Registry</title>');
    expect(about).toContain('<strong>host</strong>');
    expect(about).not.toContain('<script>x()');
    expect((await page('/wishlist').expect(200)).text).toContain('<h1>Wishlist</h1>');
    await request(url)
      .patch('/api/admin/features')
      .set(admin)
      .send({ flags: { requests: false } })
      .expect(200);
    try {
      await page('/wishlist').expect(404);
      expect((await page('/').expect(200)).text).not.toContain('href="/wishlist"');
    } finally {
      await request(url)
        .patch('/api/admin/features')
        .set(admin)
        .send({ flags: { requests: true } })
        .expect(200);
    }
  });

  it('speaks German to a German visitor, README included, once the site offers German', async () => {
    await request(url)
      .patch('/api/admin/i18n')
      .set('Authorization', `Bearer ${world.admin.jwt}`)
      .send({ defaultLocale: 'en', locales: ['en', 'de'] })
      .expect(200);
    const body = (await page('/plugins/aurora', { 'Accept-Language': 'de-DE,de;q=0.9' }).expect(200)).text;
    expect(body).toContain('<html lang="de">');
    expect(body).toContain('<h3>Aurora auf Deutsch</h3>');
    expect(body).toContain('<h2 id="integrity-heading">Integrität</h2>');
    expect((await page('/plugins?kind=theme', { 'Accept-Language': 'de' }).expect(200)).text).toContain('2 Plugins gefunden');
  });

  it('documents GET /api/plugins’s query parameters for the typed client', async () => {
    const document = (await request(url).get('/openapi/json').expect(200)).body;
    const parameters = document.paths['/api/plugins'].get.parameters as { name: string; schema: { enum?: string[] } }[];
    expect(parameters.map((p) => p.name).sort()).toEqual([
      'category',
      'ext.<key>',
      'facets',
      'featured',
      'kind',
      'limit',
      'page',
      'search',
      'sort',
      'tag',
      'verified',
    ]);
    expect(parameters.find((p) => p.name === 'sort')?.schema.enum).toEqual(['updated', 'new', 'name', 'featured']);
  });
});
