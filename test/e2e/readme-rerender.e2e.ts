/**
 * README HTML follows the renderer: every stored README keeps the renderer version that produced
 * it, and a server that starts with a newer renderer re-renders the older ones in the background
 * (from the markdown kept beside them; READMEs stored before the markdown was kept go through the
 * current sanitizer), then serves the new HTML.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/database/database-handle';
import { README_RENDER_VERSION } from '../../src/platform/markdown';
import { ReadmeIngest } from '../../src/publishing/ingest/readme-ingest';
import { ReadmeRerenderer } from '../../src/publishing/ingest/readme-rerenderer';
import { ResponseCache } from '../../src/platform/response-cache/response-cache';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('README re-rendering at start', () => {
  let db: TestDatabase;
  let forge: FakeForge;
  let env: Record<string, string>;
  let app: TestApp | null = null;

  beforeAll(async () => {
    db = await createTestDatabase();
    forge = await new FakeForge().start();
    env = {
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(forge.url).port}`,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
    };
    forge.route('GET', '/acme/:repo/raw/:tag/README.md', (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      res.end(`# ${params.repo}\n\nSome *text* and [the guide](docs/guide.md).`);
    });
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
    await db?.drop();
  });

  const readmeRow = async (slug: string) =>
    (
      await app!.database.dataSource.query(
        `SELECT rr.html, rr.markdown, rr.render_version FROM release_readme rr JOIN release r ON r.id = rr.release_id JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1`,
        [slug],
      )
    )[0] as { html: string; markdown: string | null; render_version: number };

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('re-renders READMEs of an older renderer version in the background and serves the new HTML', async () => {
    app = await startTestApp(env, db);
    const { jwt } = await userWithSession(app, 'rerender-author');
    const token = (
      await request(app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${jwt}`)
        .send({ name: 'ci', scopes: ['publish:*'] })
        .expect(201)
    ).body.token;
    for (const slug of ['kept-source', 'legacy-html']) {
      await request(app.url)
        .post(`/api/publish/${slug}`)
        .set('Authorization', `Bearer ${token}`)
        .send({
          manifest: manifestYaml({ name: slug, version: '1.0.0' }),
          manifestSource: 'plugin.yaml',
          version: 'v1.0.0',
          assets: [{ name: `${slug}.zip`, url: forge.asset(`/acme/${slug}/${slug}.zip`, { size: 64 }) }],
          repoUrl: `${forge.url}/acme/${slug}`,
        })
        .expect(201);
    }
    const fresh = await readmeRow('kept-source');
    expect(fresh).toMatchObject({
      render_version: README_RENDER_VERSION,
      markdown: '# kept-source\n\nSome *text* and [the guide](docs/guide.md).',
    });
    expect(fresh.html).toContain(`href="${forge.url}/acme/kept-source/raw/v1.0.0/docs/guide.md"`);
    await app.close();
    app = null;

    // As an older renderer left them, written with no server running: one README with its
    // markdown kept, one stored before the markdown was (its HTML from a laxer sanitizer).
    const direct = await openDatabase(loadConfig({ NODE_ENV: 'test', ...db.env, ...env }), { embeddedMode: 'own', migrate: false });
    const releaseOf = `(SELECT r.id FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1)`;
    await direct.dataSource.query(`UPDATE release_readme SET html = '<p>stale</p>', render_version = 0 WHERE release_id = ${releaseOf}`, [
      'kept-source',
    ]);
    await direct.dataSource.query(
      `UPDATE release_readme SET html = $2, markdown = NULL, render_context = NULL, render_version = 0 WHERE release_id = ${releaseOf}`,
      ['legacy-html', '<p onclick="steal()">legacy <a href="javascript:steal()">link</a></p><iframe src="https://evil.test/"></iframe>'],
    );
    await direct.close();

    app = await startTestApp(env, db);
    await until(
      async () =>
        (await readmeRow('kept-source')).render_version === README_RENDER_VERSION &&
        (await readmeRow('legacy-html')).render_version === README_RENDER_VERSION,
      'both READMEs are re-rendered',
    );
    expect((await readmeRow('kept-source')).html).toBe(fresh.html);
    expect((await readmeRow('legacy-html')).html).toBe('<p>legacy link</p>');
    expect((await request(app.url).get('/api/plugins/kept-source').expect(200)).body.readmeHtml).toBe(fresh.html);
    expect((await request(app.url).get('/api/plugins/legacy-html').expect(200)).body.readmeHtml).toBe('<p>legacy link</p>');
  });

  it('never replays a README from before its re-rendering once it may be served, while the pass goes on', async () => {
    // Both READMEs stale again, under a running server, with the stale answers stored in its cache.
    const releaseOf = `(SELECT r.id FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1)`;
    // legacy-html has no markdown: its HTML goes through the sanitizer, which must change it.
    const stale: Record<string, string> = { 'kept-source': '<p>stale</p>', 'legacy-html': '<p onclick="steal()">stale</p>' };
    for (const [slug, html] of Object.entries(stale)) {
      await app!.database.dataSource.query(`UPDATE release_readme SET html = $2, render_version = 0 WHERE release_id = ${releaseOf}`, [
        slug,
        html,
      ]);
    }
    await app!.app.get(ResponseCache).invalidate();
    const read = async (slug: string, via: 'lane' | 'express') => {
      const req = request(app!.url).get(`/api/plugins/${slug}`);
      return (await (via === 'express' ? req.set('Authorization', 'Bearer not-a-token') : req).expect(200)).body.readmeHtml as string;
    };
    for (let i = 0; i < 3; i++) for (const slug of ['kept-source', 'legacy-html']) expect(await read(slug, 'lane')).toBe(stale[slug]);

    // Between the first README's write and the second's: every path answers what the database holds.
    const renderer = app!.app.get(ReadmeIngest);
    const rerender = renderer.rerender.bind(renderer);
    const seen: Record<string, string>[] = [];
    let calls = 0;
    jest.spyOn(renderer, 'rerender').mockImplementation(async (stale) => {
      if (++calls === 2) {
        for (const slug of ['kept-source', 'legacy-html'])
          seen.push({ slug, express: await read(slug, 'express'), lane: await read(slug, 'lane') });
      }
      return rerender(stale);
    });
    await expect(app!.app.get(ReadmeRerenderer).runOnce()).resolves.toEqual({ rerendered: 2, failed: 0 });
    jest.restoreAllMocks();
    expect(seen).toHaveLength(2);
    // One of them (which one is up to the ids) was re-rendered already.
    expect(seen.filter((answer) => answer.express !== stale[answer.slug])).toHaveLength(1);
    for (const answer of seen) expect(answer.lane).toBe(answer.express);
  });
});
