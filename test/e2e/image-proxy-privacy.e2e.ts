/**
 * The README image proxy is answered to anonymous callers: why a fetch failed (a refused loopback
 * address, a connection refused, an upstream's 404) would tell them how names resolve and what
 * answers inside the network. The problem says only that the image could not be fetched; the
 * reason goes to the log, by host (never the URL's path or query).
 */
import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { PROXY_FETCH_FAILED_DETAIL } from '../../src/catalogue/images/image-proxy.service';
import { FakeForge } from '../support/fake-forge';
import { freePort } from '../support/free-port';
import { captureLog } from '../support/log-capture';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { picture } from '../../src/catalogue/images/testing/pictures';

const INTERNALS = /loopback|private|ECONN|ENOTFOUND|EAI_AGAIN|HTTP \d{3}|404|127\.0\.0\.1|refused|resolve/i;

describe('the README image proxy keeps fetch failures to itself', () => {
  const log = captureLog();
  let w: PublishWorld;
  /** Allowed by IMAGE_PROXY_ALLOW_HOSTS: answers 404 for what it does not serve. */
  let pictures: FakeForge;
  /** A loopback host IMAGE_PROXY_ALLOW_HOSTS does not name: refused before any connection. */
  let internal: FakeForge;
  /** Allowed, but nothing listens there. */
  let closedPort: number;

  beforeAll(async () => {
    pictures = await new FakeForge().start();
    internal = await new FakeForge().start();
    closedPort = await freePort();
    const allowed = `${new URL(pictures.url).host},127.0.0.1:${closedPort}`;
    // The fake forge is on FETCH_ALLOW_HOSTS too (publishWorld adds it), as an internal forge would be.
    w = await publishWorld({ FETCH_ALLOW_HOSTS: allowed, IMAGE_PROXY_ALLOW_HOSTS: allowed }, {}, createLogger('warn', log.stream));
  });
  afterAll(async () => {
    await w?.close();
    await pictures?.stop();
    await internal?.stop();
  });

  it('answers a refused, an unreachable and a 404 address with the same generic problem, and logs why', async () => {
    const { token } = await w.tokenFor('privacy', ['publish:*']);
    const slug = 'proxy-privacy';
    const repo = `acme/${slug}`;
    const urls = [
      `https://${new URL(internal.url).host}/secret.png?token=s3cret`,
      `http://127.0.0.1:${closedPort}/down.png`,
      `${pictures.url}/gone.png?token=s3cret`,
    ];
    w.forge.file(`/${repo}/raw/1.0.0/README.md`, urls.map((url, i) => `![${i}](${url})`).join('\n\n'), 'text/markdown');
    const asset = w.forge.asset(`/assets/${slug}.zip`, { size: 100 });
    await w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version: '1.0.0' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: asset }],
        repoUrl: `${w.forge.url}/${repo}`,
      })
      .expect(201);
    const html = (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body.readmeHtml as string;
    const srcs = [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(srcs).toHaveLength(3);

    for (const src of srcs) {
      // Twice: the remembered failure is answered the same way.
      for (let i = 0; i < 2; i++) {
        const res = await request(w.app.url).get(src).expect(502);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.type).toMatch(/\/problems\/image-fetch-failed$/);
        expect(res.body.detail).toBe(PROXY_FETCH_FAILED_DETAIL);
        // `type` is under BASE_URL (127.0.0.1 here); everything else is looked at.
        expect(JSON.stringify({ ...res.body, type: undefined })).not.toMatch(INTERNALS);
      }
    }
    expect(internal.hits('/secret.png')).toBe(0);
    const stored: { detail: string }[] = await w.app.database.dataSource.query(
      "SELECT detail FROM image_proxy_entry WHERE status = 'image-fetch-failed'",
    );
    expect(stored.map((row) => row.detail)).toEqual([PROXY_FETCH_FAILED_DETAIL, PROXY_FETCH_FAILED_DETAIL, PROXY_FETCH_FAILED_DETAIL]);

    // The operator still learns why, once per fetch, by host; the query's token stays out.
    const reasons = log.lines
      .map((line) => JSON.parse(line) as { context?: string; level: string; msg: string })
      .filter((line) => line.context === 'ImageProxy');
    expect(reasons).toHaveLength(3);
    for (const reason of reasons) expect(reason.level).toBe('warn');
    expect(reasons[0].msg).toMatch(new RegExp(`${new URL(internal.url).host}.*refused host.*loopback`));
    expect(reasons[1].msg).toMatch(new RegExp(`127\\.0\\.0\\.1:${closedPort}.*ECONNREFUSED`));
    expect(reasons[2].msg).toMatch(new RegExp(`${new URL(pictures.url).host}.*HTTP 404`));
    for (const reason of reasons) expect(reason.msg).not.toContain('s3cret');
  });

  it("does not reach the hosts FETCH_ALLOW_HOSTS lets releases reach: a README's image on the internal forge is refused, unfetched", async () => {
    const { token } = await w.tokenFor('forge-trust', ['publish:*']);
    const slug = 'proxy-forge-trust';
    const repo = `acme/${slug}`;
    // On the forge, which FETCH_ALLOW_HOSTS names: an image, and a page that is not one (a 422 for it
    // but a 502 for a host that does not answer would tell a caller which internal hosts answer).
    w.forge.file('/internal/logo.png', await picture('png', 300, 200), 'image/png');
    w.forge.file('/internal/admin/export', '{"users":[]}', 'application/json');
    w.forge.file(
      `/${repo}/raw/1.0.0/README.md`,
      `![logo](${w.forge.url}/internal/logo.png)\n\n![export](${w.forge.url}/internal/admin/export)`,
      'text/markdown',
    );
    const asset = w.forge.asset(`/assets/${slug}.zip`, { size: 100 });
    const pushed = await w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version: '1.0.0', icon: `${w.forge.url}/internal/logo.png` }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: asset }],
        repoUrl: `${w.forge.url}/${repo}`,
      })
      .expect(201);
    // The release's own icon still comes from the forge FETCH_ALLOW_HOSTS names.
    expect(pushed.body.warnings ?? []).toEqual([]);
    expect(w.forge.hits('/internal/logo.png')).toBe(1);

    const html = (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body.readmeHtml as string;
    const srcs = [...html.matchAll(/<img src="([^"]*)"/g)]
      .map((m) => m[1].replace(/&amp;/g, '&'))
      .filter((src) => src.startsWith('/image-proxy'));
    expect(srcs).toHaveLength(2);
    for (const src of srcs) {
      const res = await request(w.app.url).get(src).expect(502);
      expect(res.body.type).toMatch(/\/problems\/image-fetch-failed$/);
      expect(res.body.detail).toBe(PROXY_FETCH_FAILED_DETAIL);
    }
    expect(w.forge.hits('/internal/logo.png')).toBe(1);
    expect(w.forge.hits('/internal/admin/export')).toBe(0);
  });
});
