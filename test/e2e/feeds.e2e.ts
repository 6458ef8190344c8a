import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

/** A feed fetched, checked well-formed, and parsed. */
async function feedAt(w: PublishWorld, path: string) {
  const res = await request(w.app.url).get(path).expect(200);
  expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
  expect(XMLValidator.validate(res.text)).toBe(true);
  return { res, xml: res.text, feed: parseFeed(res.text) };
}

describe('Atom feeds of new releases', () => {
  let w: PublishWorld;
  let alice: string;
  let bob: string;
  let host: string;
  const base = () => w.app.config.baseUrl;

  const publish = (token: string, slug: string, version: string, fields: Record<string, unknown> = {}) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, description: `${slug} does things`, ...fields }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 64 }) }],
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);
  const yank = (slug: string, version: string, undo = false) =>
    request(w.app.url)
      .post(`/api/publish/${slug}/yank`)
      .set('Authorization', `Bearer ${alice}`)
      .send({ version, ...(undo ? { undo: true } : {}) })
      .expect(200);
  const titles = (feed: ReturnType<typeof parseFeed>) => feed.items.map((item) => item.title);

  beforeAll(async () => {
    w = await publishWorld();
    host = new URL(base()).hostname;
    await w.app.database.dataSource.query(
      `INSERT INTO kind (key, label, description, enabled, extension_fields) VALUES ('theme', 'Themes', null, true, '[]'), ('legacy', 'Legacy', null, false, '[]')`,
    );
    alice = (await w.tokenFor('alice', ['publish:*', 'yank:*'])).token;
    bob = (await w.tokenFor('bob', ['publish:*'])).token;
    await publish(alice, 'aurora', '1.0.0', { kind: 'theme' });
    await publish(alice, 'tool', '0.9.0');
    await publish(alice, 'aurora', '1.1.0', { kind: 'theme' });
    await publish(bob, 'hostile', '1.0.0', { kind: 'theme' });
    await publish(alice, 'aurora', '2.0.0-beta.1', { kind: 'theme' });
    await yank('aurora', '1.1.0');
    // What a publisher wrote is hostile to XML and HTML alike: markup, entities, control characters.
    await w.app.database.dataSource.query(`UPDATE plugin SET name = $1, description = $2 WHERE slug = 'hostile'`, [
      'Evil <script>alert(1)</script> & "co"',
      'Breaks &amp; <b>things</b> \u0007\u001b\uFFFE]]> here',
    ]);
  });
  afterAll(() => w?.close());

  it('serves the whole catalogue: newest first, yanked releases left out, every required Atom element', async () => {
    const { xml, feed, res } = await feedAt(w, '/feeds/releases.atom');
    expect(titles(feed)).toEqual(['aurora 2.0.0-beta.1', 'Evil <script>alert(1)</script> & "co" 1.0.0', 'tool 0.9.0', 'aurora 1.0.0']);
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('New releases · Plugin Registry');
    expect(feed.self).toBe(`${base()}/feeds/releases.atom`);
    expect(feed.url).toBe(`${base()}/plugins`);
    expect(feed.authors.map((a) => a.name)).toEqual(['Plugin Registry']);
    const [beta] = feed.items;
    expect(beta.id).toBe(`tag:${host},2026:release/aurora/2.0.0-beta.1`);
    expect(beta.url).toBe(`${base()}/plugins/aurora`);
    expect(beta.description).toBe('aurora does things');
    expect(beta.authors.map((a) => a.name)).toEqual(['alice']);
    expect(beta.categories.map((c) => [c.term, c.label])).toEqual([
      ['theme', 'Themes'],
      ['prerelease', 'Prerelease'],
    ]);
    // published is the release's time, as the API tells it; updated the later of it and the plugin's
    // last change (aurora's 1.1.0 was yanked after 2.0.0-beta.1 came out); the feed's, the latest of all.
    const detail = (await request(w.app.url).get('/api/plugins/aurora').expect(200)).body as {
      releases: { version: string; createdAt: number }[];
    };
    expect(beta.published?.getTime()).toBe(detail.releases.find((r) => r.version === '2.0.0-beta.1')?.createdAt);
    const [{ updated_at: auroraChanged }] = (await w.app.database.dataSource.query(
      `SELECT updated_at FROM plugin WHERE slug = 'aurora'`,
    )) as { updated_at: Date | string }[];
    expect(new Date(auroraChanged).getTime()).toBeGreaterThan(beta.published?.getTime() ?? Infinity);
    expect(beta.updated?.getTime()).toBe(new Date(auroraChanged).getTime());
    const tool = feed.items.find((item) => item.title === 'tool 0.9.0');
    expect(tool?.updated?.getTime()).toBe(tool?.published?.getTime());
    // The feed's updated: the latest of its entries' and of the yank that took aurora 1.1.0 out.
    const [{ yanked_at: auroraYank }] = (await w.app.database.dataSource.query(`SELECT max(yanked_at) AS yanked_at FROM release`)) as {
      yanked_at: Date | string;
    }[];
    expect(feed.updated?.getTime()).toBe(
      Math.max(new Date(auroraYank).getTime(), ...feed.items.map((item) => item.updated?.getTime() ?? 0)),
    );
    // RFC 4287's required elements, at the places a reader looks for them.
    for (const element of ['<id>', '<title type="text">', '<updated>', '<author>', '<link rel="self" type="application/atom+xml"'])
      expect(xml.split('<entry>')[0]).toContain(element);
    expect(
      xml
        .split('<entry>')
        .slice(1)
        .every((entry) => ['<id>', '<title', '<updated>', '<link rel="alternate"'].every((e) => entry.includes(e))),
    ).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });

  it('escapes what publishers wrote and drops characters XML cannot carry', async () => {
    const { xml, feed } = await feedAt(w, '/feeds/releases.atom');
    for (const unwanted of ['<script', '<b>', '\u0007', '\u001b', '\uFFFE']) expect(xml).not.toContain(unwanted);
    expect(xml).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot; 1.0.0');
    // Text constructs, escaped once: an XML parser reads back exactly what was stored, minus the illegal characters.
    expect(xml).toContain('<summary type="text">Breaks &amp;amp; &lt;b&gt;things&lt;/b&gt; ]]&gt; here</summary>');
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { feed: { entry: { summary: { '#text': string } }[] } };
    expect(parsed.feed.entry.map((e) => e.summary['#text'])).toContain('Breaks &amp; <b>things</b> ]]> here');
    const hostile = feed.items.find((item) => item.url === `${base()}/plugins/hostile`);
    expect(hostile?.authors.map((a) => a.name)).toEqual(['bob']);
  });

  it('serves one kind, one plugin and one owner, with their own ids, titles and pages', async () => {
    const kind = await feedAt(w, '/feeds/kinds/theme.atom');
    expect(titles(kind.feed)).toEqual(['aurora 2.0.0-beta.1', 'Evil <script>alert(1)</script> & "co" 1.0.0', 'aurora 1.0.0']);
    expect([kind.feed.title, kind.feed.self, kind.feed.url]).toEqual([
      'New releases: Themes · Plugin Registry',
      `${base()}/feeds/kinds/theme.atom`,
      `${base()}/kinds/theme`,
    ]);

    const plugin = await feedAt(w, '/feeds/plugins/aurora.atom');
    expect(titles(plugin.feed)).toEqual(['aurora 2.0.0-beta.1', 'aurora 1.0.0']);
    expect([plugin.feed.title, plugin.feed.description, plugin.feed.url]).toEqual([
      'aurora releases · Plugin Registry',
      'aurora does things',
      `${base()}/plugins/aurora`,
    ]);
    // The same release has the same id in every feed.
    const everywhere = (await feedAt(w, '/feeds/releases.atom')).feed.items.filter((i) => i.title === 'aurora 1.0.0').map((i) => i.id);
    expect(plugin.feed.items[1].id).toBe(everywhere[0]);

    const owner = await feedAt(w, '/feeds/owners/local/alice.atom');
    expect(titles(owner.feed)).toEqual(['aurora 2.0.0-beta.1', 'tool 0.9.0', 'aurora 1.0.0']);
    expect([owner.feed.title, owner.feed.url]).toEqual(['New releases by alice · Plugin Registry', null]);
    expect(titles((await feedAt(w, '/feeds/owners/local/bob.atom')).feed)).toEqual(['Evil <script>alert(1)</script> & "co" 1.0.0']);
  });

  it('answers 404 problems for an unknown or disabled kind, plugin or owner, and 400 for an impossible slug', async () => {
    await userWithSession(w.app, 'carol');
    for (const path of [
      '/feeds/kinds/nope.atom',
      '/feeds/kinds/legacy.atom',
      '/feeds/plugins/nope.atom',
      '/feeds/owners/local/nobody.atom',
      '/feeds/owners/fakehub/alice.atom',
      '/feeds/owners/local/carol.atom',
      `/feeds/owners/local/${'x'.repeat(101)}.atom`,
    ]) {
      const res = await request(w.app.url).get(path).set('Accept', 'application/json').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 404 });
    }
    const bad = await request(w.app.url).get('/feeds/plugins/Not_A_Slug.atom').set('Accept', 'application/json').expect(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: '/slug' })]);
    await request(w.app.url).get('/feeds/plugins/aurora').expect(404);
  });

  it('answers If-None-Match with 304 and no body until a release changes the feed', async () => {
    const first = await request(w.app.url).get('/feeds/plugins/aurora.atom').expect(200);
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    for (let i = 0; i < 2; i++) {
      // The second answer comes from the response cache: the same ETag, the same 304.
      const again = await request(w.app.url).get('/feeds/plugins/aurora.atom').set('If-None-Match', etag).expect(304);
      expect(again.text).toBeFalsy();
      expect(again.headers.etag).toBe(etag);
    }
    const releases = await request(w.app.url).get('/feeds/releases.atom').expect(200);

    await publish(alice, 'aurora', '2.0.0', { kind: 'theme' });
    const changed = await request(w.app.url).get('/feeds/plugins/aurora.atom').set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseFeed(changed.text).items[0].title).toBe('aurora 2.0.0');
    await request(w.app.url).get('/feeds/releases.atom').set('If-None-Match', releases.headers.etag).expect(200);

    // A yank takes the release out; undoing it puts it back where it was.
    await yank('aurora', '2.0.0');
    const yanked = await request(w.app.url).get('/feeds/plugins/aurora.atom').set('If-None-Match', changed.headers.etag).expect(200);
    expect(titles(parseFeed(yanked.text))).toEqual(['aurora 2.0.0-beta.1', 'aurora 1.0.0']);
    await yank('aurora', '1.1.0', true);
    expect(titles((await feedAt(w, '/feeds/plugins/aurora.atom')).feed)).toEqual(['aurora 2.0.0-beta.1', 'aurora 1.1.0', 'aurora 1.0.0']);
  });

  it('refuses any query parameter with a 400 naming it, never stored in the response cache', async () => {
    for (const path of [
      '/feeds/releases.atom',
      '/feeds/kinds/theme.atom',
      '/feeds/plugins/aurora.atom',
      '/feeds/owners/local/alice.atom',
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await request(w.app.url).get(`${path}?utm_source=x&b%2Fc=1`).set('Accept', 'application/json').expect(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['x-cache']).toBe('miss');
        expect(res.body.errors).toEqual([
          { path: '/utm_source', message: 'utm_source: is not a known field' },
          { path: '/b~1c', message: 'b/c: is not a known field' },
        ]);
      }
      // Without one, the same feed is served (and then from the cache).
      await request(w.app.url).get(path).expect(200);
      expect((await request(w.app.url).get(`${path}?`).expect(200)).headers['x-cache']).toBe('hit');
    }
  });

  it("moves an entry's updated with its plugin's changes, and the feed's never back when a release is yanked", async () => {
    const updated = async (path: string) => (await feedAt(w, path)).feed;
    await publish(alice, 'solo', '1.0.0');
    const before = await updated('/feeds/plugins/solo.atom');
    const published = before.items[0].published?.getTime() ?? 0;
    expect([before.items[0].updated?.getTime(), before.updated?.getTime()]).toEqual([published, published]);

    // A new release with a new description changes the plugin's: the older entry's summary changes, and its updated with it.
    await publish(alice, 'solo', '1.1.0', { description: 'Solo, deluxe' });
    const renamed = await updated('/feeds/plugins/solo.atom');
    expect(renamed.items.map((i) => [i.title, i.description])).toEqual([
      ['solo 1.1.0', 'Solo, deluxe'],
      ['solo 1.0.0', 'Solo, deluxe'],
    ]);
    const [newest, older] = renamed.items;
    expect(older.published?.getTime()).toBe(published);
    expect(older.updated?.getTime()).toBeGreaterThanOrEqual(newest.published?.getTime() ?? Infinity);
    expect(renamed.updated?.getTime()).toBe(Math.max(...renamed.items.map((i) => i.updated?.getTime() ?? 0)));

    // Yanking the newest release takes it out; the feed's updated goes forward, to the yank.
    await yank('solo', '1.1.0');
    const yanked = await updated('/feeds/plugins/solo.atom');
    const [{ yanked_at: yankedAt }] = (await w.app.database.dataSource.query(
      `SELECT r.yanked_at FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'solo' AND r.version = '1.1.0'`,
    )) as { yanked_at: Date | string }[];
    expect(titles(yanked)).toEqual(['solo 1.0.0']);
    expect(yanked.updated?.getTime()).toBeGreaterThanOrEqual(new Date(yankedAt).getTime());
    expect(yanked.updated?.getTime()).toBeGreaterThan(renamed.updated?.getTime() ?? Infinity);
    // Every release yanked: no entries, and still not back to 1970.
    await yank('solo', '1.0.0');
    const empty = await updated('/feeds/plugins/solo.atom');
    expect(empty.items).toEqual([]);
    expect(empty.updated?.getTime()).toBeGreaterThanOrEqual(yanked.updated?.getTime() ?? Infinity);
    // The owner's feed (a merge of their plugins' walks) says the same.
    const owner = await updated('/feeds/owners/local/alice.atom');
    expect(owner.items.some((i) => i.url === `${base()}/plugins/solo`)).toBe(false);
    expect(owner.updated?.getTime()).toBeGreaterThanOrEqual(empty.updated?.getTime() ?? Infinity);
    // Undoing a yank puts the entry back, updated at the undo, which is where the feed is now.
    await yank('solo', '1.0.0', true);
    const back = await updated('/feeds/plugins/solo.atom');
    expect(titles(back)).toEqual(['solo 1.0.0']);
    expect(back.items[0].updated?.getTime()).toBeGreaterThanOrEqual(empty.updated?.getTime() ?? Infinity);
    expect(back.updated?.getTime()).toBe(back.items[0].updated?.getTime());
  });

  it('links each page to its feeds from the head, and shows a feed link', async () => {
    const head = (html: string) => html.slice(0, html.indexOf('</head>'));
    const page = async (path: string) => head((await request(w.app.url).get(path).set('Accept', 'text/html').expect(200)).text);
    const link = (title: string, href: string) => `<link rel="alternate" type="application/atom+xml" title="${title}" href="${href}">`;

    expect(await page('/')).toContain(link('New releases (Atom feed)', '/feeds/releases.atom'));
    expect(await page('/plugins')).toContain(link('New releases (Atom feed)', '/feeds/releases.atom'));
    expect(await page('/plugins?kind=theme')).toContain(link('New releases: Themes (Atom feed)', '/feeds/kinds/theme.atom'));
    expect(await page('/kinds/theme')).toContain(link('New releases: Themes (Atom feed)', '/feeds/kinds/theme.atom'));
    const plugin = await request(w.app.url).get('/plugins/aurora').set('Accept', 'text/html').expect(200);
    expect(head(plugin.text)).toContain(link('aurora releases (Atom feed)', '/feeds/plugins/aurora.atom'));
    expect(head(plugin.text)).toContain(link('New releases by alice (Atom feed)', '/feeds/owners/local/alice.atom'));
    expect(plugin.text).toContain(
      '<a class="feed-link" href="/feeds/plugins/aurora.atom" type="application/atom+xml">aurora releases (Atom feed)</a>',
    );
    // Every feed the page links to answers.
    for (const href of plugin.text.match(/href="(\/feeds\/[^"]+)"/g) ?? []) await feedAt(w, href.slice(6, -1));
  });
});
