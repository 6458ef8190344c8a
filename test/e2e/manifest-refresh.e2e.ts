/**
 * The admin's "Refresh manifest" (POST /api/admin/plugins/:slug/refresh-manifest): the latest
 * release's manifest read again through the forge's API (the release's manifest asset first, else
 * the repository file at the tag), validated like an ingest, written to the catalogue fields
 * with an audit entry; the slug and the signed releases never change, and a failure changes
 * nothing.
 */
import request from 'supertest';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { adminRefusalCallers, expectAdminOnly } from '../support/admin-refusals';
import { WebhookWorld, type WebhookPlugin } from '../support/webhook-world';

describe('POST /api/admin/plugins/:slug/refresh-manifest', () => {
  let w: WebhookWorld;

  beforeAll(async () => {
    w = await WebhookWorld.open();
  });
  afterAll(() => w?.close());

  const refresh = (slug: string) => w.as(w.adminJwt, 'post', `/api/admin/plugins/${slug}/refresh-manifest`).send({});
  const api = (plugin: WebhookPlugin) => `${w.apiPath('github')}/repos/${plugin.repo}`;
  const serveFile = (plugin: WebhookPlugin, file: string, text: string) =>
    w.forge.route('GET', `${api(plugin)}/contents/${file}`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/vnd.github.raw+json' });
      res.end(text);
    });
  const refreshAudits = async (slug: string) =>
    w.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_entry WHERE action = 'plugin.manifest_refresh' AND slug = $1`,
      [slug],
    );
  const snapshot = async (slug: string) =>
    w.query(
      `SELECT p.slug, p.name, p.description, p.tags, p.metadata, p.search_readme, r.version, r.manifest_sha256, r.integrity, r.manifest, r.extensions,
              (SELECT json_agg(json_build_array(rr.locale, rr.html) ORDER BY rr.position) FROM release_readme rr WHERE rr.release_id = r.id) AS readmes
       FROM plugin p JOIN release r ON r.plugin_id = p.id WHERE p.slug = $1`,
      [slug],
    );

  it('reads the manifest file at the tag and updates what the catalogue shows, never the slug or the release', async () => {
    const plugin = await w.plugin('github');
    const before = await snapshot(plugin.slug);
    await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200);
    serveFile(plugin, '.plugin.yaml', w.manifest(plugin, '0.1.0', { description: 'Fixed after the fact', tags: ['fixed'] }));

    const res = await refresh(plugin.slug).expect(200);
    expect(res.body).toMatchObject({ slug: plugin.slug, latestVersion: '0.1.0' });
    const detail = (await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body;
    expect(detail).toMatchObject({ slug: plugin.slug, description: 'Fixed after the fact', tags: ['fixed'] });
    const after = await snapshot(plugin.slug);
    expect(after.map((r) => [r.version, r.manifest_sha256, r.integrity])).toEqual(
      before.map((r) => [r.version, r.manifest_sha256, r.integrity]),
    );
    // The forge has no README for it: named in the audit entry, as a publish names it.
    expect(await refreshAudits(plugin.slug)).toEqual([
      {
        details: {
          version: '0.1.0',
          tag: '0.1.0',
          file: '.plugin.yaml',
          from: 'repository',
          warnings: [expect.stringMatching(/^README README\.md was not rendered/)],
        },
      },
    ]);
  });

  it('fetches the icon and screenshots again: the detail and the list show the new ones', async () => {
    const plugin = await w.plugin('github');
    expect((await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body.images).toEqual({ screenshots: [] });
    const icon = w.forge.file(`/pictures/${plugin.slug}/icon.png`, await picture('png', 64, 64), 'image/png');
    const shot = w.forge.file(`/pictures/${plugin.slug}/shot.jpg`, await picture('jpeg', 700, 350), 'image/jpeg');
    serveFile(
      plugin,
      '.plugin.yaml',
      w.manifest(plugin, '0.1.0', { icon, screenshots: [{ url: shot, alt: 'The panel' }, { url: `${icon}.missing` }] }),
    );

    await refresh(plugin.slug).expect(200);
    const detail = (await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body;
    expect(detail.icon).toBe(icon);
    expect(detail.images.icon.variants.map((v: { width: number }) => v.width)).toEqual([64, 128, 256]);
    expect(detail.images.screenshots).toEqual([expect.objectContaining({ index: 0, alt: 'The panel', width: 700, height: 350 })]);
    await request(w.app.url).get(detail.images.icon.url).expect(200).expect('Content-Type', 'image/webp');
    const listed = (await request(w.app.url).get(`/api/plugins?search=${plugin.slug}`).expect(200)).body.plugins.find(
      (p: { slug: string }) => p.slug === plugin.slug,
    );
    expect(listed.images.icon.url).toBe(detail.images.icon.url);
    const [audit] = await refreshAudits(plugin.slug);
    expect(audit.details.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^screenshot 2 was left out: .*404/)]));
  });

  it("shows the refreshed manifest as the detail's metadata and re-renders the README at the tag", async () => {
    const plugin = await w.plugin('github');
    let guide = { status: 200, text: '# Guide\n\nRefreshed *words* <script>alert(1)</script>' };
    w.forge.route('GET', `/gh/${plugin.repo}/raw/:tag/docs/GUIDE.md`, (_req, res) => {
      res.writeHead(guide.status, { 'Content-Type': 'text/markdown' });
      res.end(guide.text);
    });
    const stale = (await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body;
    expect(stale.readmeHtml).toBeNull();
    serveFile(
      plugin,
      '.plugin.yaml',
      w.manifest(plugin, '0.1.0', { description: 'Now with a guide', homepage: 'https://example.test/home', readme: 'docs/GUIDE.md' }),
    );

    await refresh(plugin.slug).expect(200);
    const detail = (await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body;
    expect(detail.metadata).toEqual({
      name: plugin.slug,
      version: '0.1.0',
      description: 'Now with a guide',
      homepage: 'https://example.test/home',
      readme: 'docs/GUIDE.md',
    });
    expect(detail).toMatchObject({ description: 'Now with a guide', readmeLocale: null, readmeAvailableLocales: [] });
    expect(detail.readmeHtml).toContain('<h1>Guide</h1>');
    expect(detail.readmeHtml).toContain('<em>words</em>');
    expect(detail.readmeHtml).not.toContain('<script');
    // The README is part of the search document.
    const found = (await request(w.app.url).get('/api/plugins?search=refreshed').expect(200)).body.plugins.map(
      (p: { slug: string }) => p.slug,
    );
    expect(found).toContain(plugin.slug);
    expect(await refreshAudits(plugin.slug)).toEqual([
      { details: { version: '0.1.0', tag: '0.1.0', file: '.plugin.yaml', from: 'repository' } },
    ]);

    // A README the forge cannot serve on a later refresh keeps what was stored, and the audit says why.
    guide = { status: 500, text: '' };
    await refresh(plugin.slug).expect(200);
    expect((await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body.readmeHtml).toBe(detail.readmeHtml);
    expect((await refreshAudits(plugin.slug))[1].details).toMatchObject({ warnings: [expect.stringMatching(/docs\/GUIDE\.md/)] });
  });

  it("prefers the release's manifest asset, found under the v-prefixed tag", async () => {
    const plugin = await w.plugin('github');
    const assets = w.releaseFiles(plugin, 'v0.1.0', w.manifest(plugin, '0.1.0', { description: 'From the release asset' }));
    w.forge.json('GET', `${api(plugin)}/releases/tags/v0.1.0`, {
      tag_name: 'v0.1.0',
      draft: false,
      assets: assets.map((a) => ({ name: a.name, browser_download_url: a.url })),
    });
    serveFile(plugin, '.plugin.yaml', w.manifest(plugin, '0.1.0', { description: 'From the repository' }));
    await refresh(plugin.slug).expect(200);
    expect((await request(w.app.url).get(`/api/plugins/${plugin.slug}`).expect(200)).body.description).toBe('From the release asset');
    expect((await refreshAudits(plugin.slug))[0].details).toMatchObject({ tag: 'v0.1.0', file: 'plugin.yaml', from: 'asset' });
  });

  it('refuses a manifest that breaks the rules or names another version, listing every violation, changing nothing', async () => {
    const plugin = await w.plugin('github');
    const before = await snapshot(plugin.slug);
    serveFile(plugin, '.plugin.yaml', w.manifest(plugin, '0.2.0', { license: 42 }));
    const res = await refresh(plugin.slug).expect(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.type).toMatch(/manifest-invalid$/);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/license', '/version']);
    expect(await snapshot(plugin.slug)).toEqual(before);
    expect(await refreshAudits(plugin.slug)).toEqual([]);
  });

  it('refuses a manifest that moves a release without verified provenance into a kind that requires it, changing nothing', async () => {
    await w
      .as(w.adminJwt, 'post', '/api/admin/kinds')
      .send({ key: 'sealed-theme', label: 'Sealed themes', requireProvenance: true })
      .expect(201);
    const plugin = await w.plugin('github');
    const before = await snapshot(plugin.slug);
    serveFile(plugin, '.plugin.yaml', w.manifest(plugin, '0.1.0', { kind: 'sealed-theme' }));
    const res = await refresh(plugin.slug).expect(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: expect.stringMatching(/\/problems\/provenance-required$/),
      check: 'required',
      errors: [{ path: '/kind', message: expect.stringContaining('sealed-theme') }],
    });
    expect(await snapshot(plugin.slug)).toEqual(before);
    expect(await refreshAudits(plugin.slug)).toEqual([]);
  });

  it('answers 422 manifest-not-found when neither the release nor the repository has one, changing nothing', async () => {
    const plugin = await w.plugin('github');
    const res = await refresh(plugin.slug).expect(422);
    expect(res.body.type).toMatch(/manifest-not-found$/);
    expect(await refreshAudits(plugin.slug)).toEqual([]);
  });

  it('answers 502 when the forge fails, and 404 for an unknown plugin', async () => {
    const plugin = await w.plugin('github');
    w.forge.route('GET', `${api(plugin)}/releases/tags/0.1.0`, (_req, res) => {
      res.writeHead(500);
      res.end();
    });
    expect((await refresh(plugin.slug).expect(502)).body.type).toMatch(/forge-fetch-failed$/);
    expect(await refreshAudits(plugin.slug)).toEqual([]);
    await refresh('no-such-plugin').expect(404);
  });

  it('is for admins only', async () => {
    const plugin = await w.plugin('github');
    await expectAdminOnly(w.app, await adminRefusalCallers(w.app), 'post', `/api/admin/plugins/${plugin.slug}/refresh-manifest`, {});
  });
});
