/**
 * The README image proxy's bounds, over HTTP: at most PROXY_FETCHES_AT_ONCE upstream fetches at
 * once with PROXY_FETCHES_WAITING more waiting, the rest answered 503 image-proxy-busy with
 * Retry-After; a failed fetch (502, 422) remembered for PROXY_FAILURE_TTL_MS and answered again
 * without fetching; a byte cap of at most PROXY_MAX_BYTES; and at most MAX_PROXIED_IMAGES images
 * of one README proxied, the rest shown as their alt text.
 */
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { PROXY_MAX_BYTES } from '../../src/catalogue/images/image-fetch-policy';
import {
  PROXY_FAILURE_TTL_MS,
  PROXY_FETCH_FAILED_DETAIL,
  PROXY_FETCHES_AT_ONCE,
  PROXY_FETCHES_WAITING,
} from '../../src/catalogue/images/image-proxy.service';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { MAX_PROXIED_IMAGES } from '../../src/platform/markdown/sanitize';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

/** Resolves once `condition` holds (checked every 20 ms), or fails after 20 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the README image proxy under load and failure', () => {
  let w: PublishWorld;
  let token: string;
  /** Another host (allowed by FETCH_ALLOW_HOSTS) serving the README images. */
  let pictures: FakeForge;
  let counter = 0;

  beforeAll(async () => {
    pictures = await new FakeForge().start();
    w = await publishWorld({ FETCH_ALLOW_HOSTS: new URL(pictures.url).host, IMAGE_PROXY_ALLOW_HOSTS: new URL(pictures.url).host });
    token = (await w.tokenFor('illustrator', ['publish:*'])).token;
  });
  afterAll(async () => {
    await w?.close();
    await pictures?.stop();
  });

  /** Publishes a new plugin with this README; its rendered HTML and the proxied addresses in it, in order. */
  async function publishReadme(readme: string): Promise<{ html: string; srcs: string[] }> {
    const slug = `proxy-limits-${counter++}`;
    const repo = `acme/${slug}`;
    w.forge.file(`/${repo}/raw/1.0.0/README.md`, readme, 'text/markdown');
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
    return { html, srcs: [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&')) };
  }

  it('runs at most 4 upstream fetches at once, queues 32 more, and answers the rest 503 image-proxy-busy with Retry-After', async () => {
    const extra = 4;
    const total = PROXY_FETCHES_AT_ONCE + PROXY_FETCHES_WAITING + extra;
    const png = await picture('png', 8, 8);
    let open = 0;
    let mostOpen = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    pictures.route('GET', '/held/:n', async (_req, res: ServerResponse) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.once('close', () => open--);
      await released;
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(png.length) }).end(png);
    });
    const { srcs } = await publishReadme(Array.from({ length: total }, (_, i) => `![${i}](${pictures.url}/held/${i}.png)`).join('\n\n'));
    expect(srcs).toHaveLength(total);

    const answers: request.Response[] = [];
    const all = srcs.map((src) =>
      request(w.app.url)
        .get(src)
        .ok(() => true)
        .then((res) => {
          answers.push(res);
          return res;
        }),
    );
    // The fetches beyond the running and the waiting ones are answered at once, while the rest wait.
    await until(() => answers.length >= extra && open === PROXY_FETCHES_AT_ONCE, 'the busy answers and the running fetches');
    expect(answers).toHaveLength(extra);
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.type).toMatch(/\/problems\/image-proxy-busy$/);
    }
    expect(mostOpen).toBe(PROXY_FETCHES_AT_ONCE);

    release();
    const results = await Promise.all(all);
    expect(results.filter((res) => res.status === 200)).toHaveLength(PROXY_FETCHES_AT_ONCE + PROXY_FETCHES_WAITING);
    expect(results.filter((res) => res.status === 503)).toHaveLength(extra);
    expect(mostOpen).toBe(PROXY_FETCHES_AT_ONCE);
    expect(pictures.requests.filter((r) => r.url.startsWith('/held/'))).toHaveLength(PROXY_FETCHES_AT_ONCE + PROXY_FETCHES_WAITING);

    // A busy answer is not remembered: asked again, the image is fetched and served.
    const busy = srcs.filter((_, i) => results[i].status === 503);
    for (const src of busy) await request(w.app.url).get(src).expect(200);
  });

  it('remembers a failed fetch and a refused image for 10 minutes: asked again, the same problem without fetching', async () => {
    pictures.file('/not-a-picture.png', '<!doctype html><title>Sign in</title>', 'image/png');
    const { srcs } = await publishReadme(`![gone](${pictures.url}/gone.png) ![page](${pictures.url}/not-a-picture.png)`);
    const [gone, page] = srcs;

    for (let i = 0; i < 3; i++) {
      const failed = await request(w.app.url).get(gone).expect(502);
      expect(failed.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(failed.body.type).toMatch(/\/problems\/image-fetch-failed$/);
      expect(failed.body.detail).toBe(PROXY_FETCH_FAILED_DETAIL);
      const refused = await request(w.app.url).get(page).expect(422);
      expect(refused.body.type).toMatch(/\/problems\/image-refused$/);
    }
    expect(pictures.hits('/gone.png')).toBe(1);
    expect(pictures.hits('/not-a-picture.png')).toBe(1);

    const rows: { status: string; detail: string; bytes: Buffer | null; fetched_at: Date; expires_at: Date }[] =
      await w.app.database.dataSource.query(
        "SELECT status, detail, bytes, fetched_at, expires_at FROM image_proxy_entry WHERE status <> 'ok' ORDER BY status",
      );
    expect(rows.map((r) => r.status)).toEqual(['image-fetch-failed', 'image-refused']);
    for (const row of rows) {
      expect(row.bytes).toBeNull();
      expect(new Date(row.expires_at).getTime() - new Date(row.fetched_at).getTime()).toBe(PROXY_FAILURE_TTL_MS);
    }

    // Once the window is over, the image is fetched again: now it is there.
    pictures.file('/gone.png', await picture('png', 12, 12), 'image/png');
    await w.app.database.dataSource.query("UPDATE image_proxy_entry SET expires_at = fetched_at WHERE status = 'image-fetch-failed'");
    await request(w.app.url).get(gone).expect(200);
    expect(pictures.hits('/gone.png')).toBe(2);
  });

  it('refuses an image over 5 MiB even though the images.max_bytes setting allows 10', async () => {
    pictures.file('/huge.png', Buffer.concat([await picture('png', 8, 8), Buffer.alloc(PROXY_MAX_BYTES + 1024)]), 'image/png');
    const { srcs } = await publishReadme(`![huge](${pictures.url}/huge.png)`);
    const res = await request(w.app.url).get(srcs[0]).expect(502);
    expect(res.body.type).toMatch(/\/problems\/image-fetch-failed$/);
    // Why (over the cap) goes to the log; the public detail is the same for every failed fetch.
    expect(res.body.detail).toBe(PROXY_FETCH_FAILED_DETAIL);
    expect(pictures.hits('/huge.png')).toBe(1);
  });

  it(`proxies at most ${MAX_PROXIED_IMAGES} images of a README with 60; the rest are their alt text`, async () => {
    const { html, srcs } = await publishReadme(
      Array.from({ length: 60 }, (_, i) => `![figure ${i}](${pictures.url}/figure-${i}.png)`).join('\n\n'),
    );
    expect(srcs).toHaveLength(MAX_PROXIED_IMAGES);
    // Relative, same-origin addresses: an API client resolves them against the registry's base URL.
    for (const src of srcs) expect(src).toMatch(/^\/image-proxy\?url=[^&]+&sig=[0-9a-f]{64}$/);
    expect(html).not.toContain(`figure-${MAX_PROXIED_IMAGES}.png`);
    for (let i = MAX_PROXIED_IMAGES; i < 60; i++) expect(html).toContain(`<p>figure ${i}</p>`);
  });
});
