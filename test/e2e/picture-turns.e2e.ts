/**
 * Release pictures take their turn before they are downloaded: however many
 * releases ingest at once, at most RELEASE_PICTURES_AT_ONCE of their pictures are downloaded or
 * decoded at a time (the rest wait holding nothing), and a release's pictures wait at most
 * PICTURE_WAIT_MS, all together: one still waiting then is left out with a warning, never
 * fetched, and the release still publishes.
 */
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { RELEASE_PICTURES_AT_ONCE } from '../../src/catalogue/images/picture-fetcher';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

/** A picture server whose every answer takes `delayMs`; counts the downloads open at once. */
async function slowPictures(delayMs: number) {
  const server = await new FakeForge().start();
  const png = await picture('png', 16, 16);
  const counts = { open: 0, mostOpen: 0 };
  server.route('GET', '/slow/:name', async (_req, res: ServerResponse) => {
    counts.mostOpen = Math.max(counts.mostOpen, ++counts.open);
    res.once('close', () => counts.open--);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(png.length) }).end(png);
  });
  return { server, counts };
}

function pushWithPictures(w: PublishWorld, token: string, slug: string, picturesUrl: string, screenshots: number) {
  const asset = w.forge.asset(`/assets/${slug}.zip`, { size: 100 });
  return w.push(token, slug, {
    manifest: manifestYaml({
      name: slug,
      version: '1.0.0',
      icon: `${picturesUrl}/slow/${slug}-icon.png`,
      screenshots: Array.from({ length: screenshots }, (_, i) => ({ url: `${picturesUrl}/slow/${slug}-${i}.png` })),
    }),
    manifestSource: 'plugin.yaml',
    version: '1.0.0',
    assets: [{ name: `${slug}.zip`, url: asset }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  });
}

const pictureWarnings = (body: { warnings?: string[] }) =>
  (body.warnings ?? []).filter((warning) => /^(icon|screenshot \d+) /.test(warning));

describe('release pictures take turns before they are downloaded', () => {
  let w: PublishWorld;
  let pictures: Awaited<ReturnType<typeof slowPictures>>;

  beforeAll(async () => {
    pictures = await slowPictures(150);
    w = await publishWorld({ FETCH_ALLOW_HOSTS: new URL(pictures.server.url).host });
  });
  afterAll(async () => {
    await w?.close();
    await pictures?.server.stop();
  });

  it(`downloads at most ${RELEASE_PICTURES_AT_ONCE} pictures at once for 3 releases ingesting together, and keeps every one`, async () => {
    const users = [
      await w.tokenFor('turns-a', ['publish:*']),
      await w.tokenFor('turns-b', ['publish:*']),
      await w.tokenFor('turns-c', ['publish:*']),
    ];
    const results = await Promise.all(users.map((user, i) => pushWithPictures(w, user.token, `turns-${i}`, pictures.server.url, 3)));
    for (const res of results) {
      expect(res.status).toBe(201);
      expect(pictureWarnings(res.body)).toEqual([]);
    }
    // Each release fetches 3 pictures at a time of its own: without turns, 9 were open at once.
    expect(pictures.counts.mostOpen).toBe(RELEASE_PICTURES_AT_ONCE);
    expect(pictures.server.requests.filter((r) => r.url.startsWith('/slow/'))).toHaveLength(12);
  });
});

describe('a release waits at most PICTURE_WAIT_MS for its pictures', () => {
  const WAIT_MS = 400;
  let w: PublishWorld;
  let pictures: Awaited<ReturnType<typeof slowPictures>>;

  beforeAll(async () => {
    pictures = await slowPictures(300);
    w = await publishWorld({ FETCH_ALLOW_HOSTS: new URL(pictures.server.url).host, PICTURE_WAIT_MS: String(WAIT_MS) });
  });
  afterAll(async () => {
    await w?.close();
    await pictures?.server.stop();
  });

  it('leaves out, unfetched, the pictures still waiting then, with a warning; the release publishes with the others', async () => {
    const { token } = await w.tokenFor('patient', ['publish:*']);
    const res = await pushWithPictures(w, token, 'waits', pictures.server.url, 9);
    expect(res.status).toBe(201);
    const warnings = pictureWarnings(res.body);
    const waited = warnings.filter((warning) =>
      warning.includes(
        `was left out: the registry was decoding other pictures for as long as a release's pictures may wait (${WAIT_MS} ms)`,
      ),
    );
    // 10 pictures of 300 ms each, 2 at a time, take 1.5 s: those not begun within 400 ms are left out.
    expect(waited.length).toBeGreaterThan(0);
    expect(waited).toEqual(warnings);
    const fetched = pictures.server.requests.filter((r) => r.url.startsWith('/slow/')).length;
    // The first two began at once; none left out was fetched.
    expect(fetched).toBeGreaterThanOrEqual(RELEASE_PICTURES_AT_ONCE);
    expect(fetched + waited.length).toBe(10);
    const shown = (await request(w.app.url).get('/api/plugins/waits').expect(200)).body.images;
    expect(shown.screenshots.length + (shown.icon ? 1 : 0)).toBe(fetched);
  });
});
