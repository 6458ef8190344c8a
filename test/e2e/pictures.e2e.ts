/**
 * Pictures end to end over HTTP: a release whose icon, screenshots and README images come from
 * another loopback host is ingested; the encodings are served from this origin with immutable
 * caching, their type, nosniff and an ETag; pictures that fail are warnings, never a failed
 * release; README images go through the signed proxy, which refuses a tampered signature and a
 * host the fetch policy does not allow.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { MAX_INPUT_PIXELS } from '../../src/catalogue/images/image-encoder';
import { picture, pngClaiming, SVG } from '../../src/catalogue/images/testing/pictures';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const binary = (res: request.Response, cb: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('pictures', () => {
  let w: PublishWorld;
  let token: string;
  /** Another host (allowed by FETCH_ALLOW_HOSTS and IMAGE_PROXY_ALLOW_HOSTS) serving the pictures. */
  let pictures: FakeForge;
  /** A loopback host that neither list names: a private address, refused. */
  let internal: FakeForge;
  let counter = 0;

  beforeAll(async () => {
    pictures = await new FakeForge().start();
    internal = await new FakeForge().start();
    w = await publishWorld(
      { FETCH_ALLOW_HOSTS: new URL(pictures.url).host, IMAGE_PROXY_ALLOW_HOSTS: new URL(pictures.url).host },
      { proxyImagesFromForge: true },
    );
    token = (await w.tokenFor('painter', ['publish:*'])).token;
    pictures.file('/icon.png', await picture('png', 300, 200), 'image/png');
    pictures.file('/shot-1.jpg', await picture('jpeg', 2000, 1000, { exif: true }), 'image/jpeg');
    pictures.file('/not-an-image.png', '<!doctype html><title>Sign in</title>', 'image/png');
    pictures.file('/remote.gif', await picture('gif', 120, 60), 'image/gif');
    pictures.file('/logo.svg', SVG, 'image/svg+xml');
    internal.file('/secret.png', await picture('png', 10, 10), 'image/png');
  });
  afterAll(async () => {
    await w?.close();
    await pictures?.stop();
    await internal?.stop();
  });

  /** Publishes a release of a new plugin with these manifest fields and this README (served by the forge at the tag). */
  async function publish(fields: Record<string, unknown>, readme = '# Plugin\n') {
    const slug = `pictures-${counter++}`;
    const repo = `acme/${slug}`;
    w.forge.file(`/${repo}/raw/1.0.0/README.md`, readme, 'text/markdown');
    const asset = w.forge.asset(`/assets/${slug}.zip`, { size: 100 });
    const res = await w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version: '1.0.0', ...fields }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: asset }],
        repoUrl: `${w.forge.url}/${repo}`,
      })
      .expect(201);
    return { slug, repo, warnings: res.body.warnings as string[] };
  }

  const get = (path: string) => request(w.app.url).get(path).buffer(true).parse(binary);

  describe('a release with an icon, screenshots and README images on another host', () => {
    let slug: string;
    let repo: string;
    let warnings: string[];
    let detail: Record<string, any>;

    beforeAll(async () => {
      w.forge.file(`/acme/pictures-0/raw/1.0.0/docs/logo.png`, await picture('png', 90, 90), 'image/png');
      ({ slug, repo, warnings } = await publish(
        {
          icon: `${pictures.url}/icon.png`,
          screenshots: [
            { url: `${pictures.url}/shot-1.jpg`, caption: 'The editor', alt: 'An editor window with a plugin panel' },
            { url: `${pictures.url}/missing.png`, caption: 'Gone' },
            { url: `${pictures.url}/not-an-image.png` },
          ],
        },
        `# Hello\n\n![logo](docs/logo.png)\n\n![remote](${pictures.url}/remote.gif)\n\n![internal](${internal.url}/secret.png)\n`,
      ));
      detail = (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body;
    });

    it('is published, naming each picture it left out as a warning', () => {
      expect(repo).toBe('acme/pictures-0');
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/^screenshot 2 was left out: .*404/);
      expect(warnings[1]).toMatch(/^screenshot 3 was left out: .*not-an-image\.png is not a PNG, JPEG, GIF, WebP or AVIF picture/);
    });

    it('keeps the manifest URL in `icon` and adds the served pictures in `images`', () => {
      expect(detail.icon).toBe(`${pictures.url}/icon.png`);
      expect(detail.images.icon.variants.map((v: any) => [v.width, v.height])).toEqual([
        [64, 64],
        [128, 128],
        [256, 256],
      ]);
      expect(detail.images.icon.url).toBe(detail.images.icon.variants[1].url);
      expect(detail.images.screenshots).toHaveLength(1);
      const [shot] = detail.images.screenshots;
      expect(shot).toMatchObject({
        index: 0,
        caption: 'The editor',
        alt: 'An editor window with a plugin panel',
        width: 1280,
        height: 640,
      });
      expect(shot.variants.map((v: any) => v.width)).toEqual([640, 1280]);
      for (const v of [...detail.images.icon.variants, ...shot.variants]) expect(v.url).toMatch(/^\/images\/[0-9a-f]{64}\.webp$/);
    });

    it('serves each encoding from this origin: WebP, immutable, nosniff, its hash as name and ETag', async () => {
      for (const variant of [...detail.images.icon.variants, ...detail.images.screenshots[0].variants]) {
        const res = await get(variant.url).expect(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        const sha = createHash('sha256')
          .update(res.body as Buffer)
          .digest('hex');
        expect(variant.url).toBe(`/images/${sha}.webp`);
        expect(res.headers.etag).toBe(`"${sha}"`);
        const meta = await sharp(res.body as Buffer).metadata();
        expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', variant.width, variant.height, undefined]);
        await request(w.app.url).get(variant.url).set('If-None-Match', res.headers.etag).expect(304);
      }
    });

    it('answers an unknown or malformed image name with a problem 404', async () => {
      const res = await request(w.app.url)
        .get(`/images/${'a'.repeat(64)}.webp`)
        .expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      await request(w.app.url).get('/images/..%2Fetc.webp').expect(404);
      await request(w.app.url)
        .get(`/images/${'A'.repeat(64)}.webp`)
        .expect(404);
    });

    it('shows the icon on list items too', async () => {
      const list = await request(w.app.url).get(`/api/plugins?search=${slug}`).expect(200);
      const item = list.body.plugins.find((p: any) => p.slug === slug);
      expect(item.images).toEqual({ icon: { url: detail.images.icon.url, width: 128, height: 128 } });
    });

    describe('README images', () => {
      let srcs: string[];
      beforeAll(() => {
        srcs = [...(detail.readmeHtml as string).matchAll(/<img src="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      });
      const upstream = (src: string) => new URL(src, w.app.url).searchParams.get('url');

      it('are rewritten to the signed proxy on this origin, relative ones first resolved at the tag', () => {
        expect(srcs).toHaveLength(3);
        for (const src of srcs) expect(src).toMatch(/^\/image-proxy\?url=[^&]+&sig=[0-9a-f]{64}$/);
        expect(srcs.map(upstream)).toEqual([
          `${w.forge.url}/${repo}/raw/1.0.0/docs/logo.png`,
          `${pictures.url}/remote.gif`,
          `${internal.url}/secret.png`,
        ]);
      });

      it('are fetched once, re-encoded and served with the same headers (cached a day)', async () => {
        const before = pictures.hits('/remote.gif');
        for (let i = 0; i < 2; i++) {
          const res = await get(srcs[1]).expect(200);
          expect(res.headers['content-type']).toBe('image/webp');
          expect(res.headers['cache-control']).toBe('public, max-age=86400');
          expect(res.headers['x-content-type-options']).toBe('nosniff');
          expect(res.headers.etag).toBe(
            `"${createHash('sha256')
              .update(res.body as Buffer)
              .digest('hex')}"`,
          );
          expect((await sharp(res.body as Buffer).metadata()).width).toBe(120);
        }
        expect(pictures.hits('/remote.gif') - before).toBe(1);
        await get(srcs[0]).expect(200);
      });

      it('refuse a tampered or missing signature with a 403 problem, fetching nothing', async () => {
        const src = new URL(srcs[1], w.app.url);
        const sig = src.searchParams.get('sig')!;
        const before = pictures.requests.length;
        const tampered = await request(w.app.url)
          .get('/image-proxy')
          .query({ url: `${pictures.url}/icon.png`, sig })
          .expect(403);
        expect(tampered.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(tampered.body.type).toMatch(/\/problems\/image-signature-invalid$/);
        await request(w.app.url)
          .get('/image-proxy')
          .query({ url: src.searchParams.get('url'), sig: `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}` })
          .expect(403);
        await request(w.app.url)
          .get('/image-proxy')
          .query({ url: src.searchParams.get('url') })
          .expect(403);
        await request(w.app.url).get('/image-proxy').expect(403);
        expect(pictures.requests.length).toBe(before);
      });

      it('refuse a private address the fetch policy does not allow, even signed', async () => {
        const res = await request(w.app.url).get(srcs[2]).expect(502);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.type).toMatch(/\/problems\/image-fetch-failed$/);
        expect(internal.hits('/secret.png')).toBe(0);
      });
    });
  });

  it('refuses an icon that is not an image, an SVG, or a decompression bomb, as warnings: the release is published without one', async () => {
    const side = Math.ceil(Math.sqrt(MAX_INPUT_PIXELS)) + 1;
    pictures.file('/bomb.png', pngClaiming(side, side), 'image/png');
    for (const [path, expected] of [
      ['/not-an-image.png', /icon was left out: .* is not a PNG, JPEG, GIF, WebP or AVIF picture/],
      ['/logo.svg', /icon was left out: .* is an SVG/],
      ['/bomb.png', /icon was left out: .* megapixels/],
    ] as const) {
      const { slug, warnings } = await publish({ icon: `${pictures.url}${path}` });
      expect(warnings).toEqual([expect.stringMatching(expected)]);
      const detail = (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body;
      expect(detail.icon).toBe(`${pictures.url}${path}`);
      expect(detail.images).toEqual({ screenshots: [] });
    }
  });

  it('refuses an icon larger than the images.max_bytes setting, as a warning', async () => {
    const admin = await userWithSession(w.app, 'picture-admin', 'admin');
    await request(w.app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'images.max_bytes': 2048 })
      .expect(200);
    try {
      pictures.file(
        '/big.png',
        await sharp({ create: { width: 400, height: 400, channels: 3, background: '#888' } })
          .png({ compressionLevel: 0 })
          .toBuffer(),
        'image/png',
      );
      const { slug, warnings } = await publish({ icon: `${pictures.url}/big.png` });
      expect(warnings).toEqual([expect.stringMatching(/^icon was left out: .*(larger|too large|2048)/)]);
      expect((await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body.images.icon).toBeUndefined();
    } finally {
      await request(w.app.url)
        .patch('/api/admin/settings')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .send({ 'images.max_bytes': 10 * 1024 * 1024 })
        .expect(200);
    }
  });
});
