import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { eventually } from '../support/eventually';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const letter = (n: number, base: number) => String.fromCharCode(base + (n % 26));

/**
 * What upstream shows besides signed bytes (README renderings, pictures) is bounded and checked
 * as ingest bounds and checks its own: an upstream that lists junk locales or serves odd pictures
 * costs a warning, never the release. Upstream is read through a proxy that changes its answers.
 */
describe('a mirror bounds and checks what upstream shows', () => {
  let up: PublishWorld;
  let mirror: TestApp;
  let proxy: Server;
  let token: string;
  const rewrites = new Map<string, (detail: Record<string, unknown>, locale: string | null) => void>();
  const pictures = new Map<string, Buffer>();
  const localesRead = new Set<string>();

  const publish = (slug: string) =>
    up
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version: '1.0.0' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: up.forge.asset(`/acme/${slug}/1.0.0/${slug}.zip`, { size: 300 }) }],
        repoUrl: `${up.forge.url}/acme/${slug}`,
      })
      .expect(201);
  const copied = (slug: string) =>
    eventually(
      async () => {
        const res = await request(mirror.url).get(`/api/plugins/${slug}`);
        return res.status === 200 && res.body.latestVersion === '1.0.0'
          ? (res.body as {
              readmeAvailableLocales: string[];
              readmeHtml: string | null;
              images: { icon?: unknown; screenshots: { index: number }[] };
            })
          : null;
      },
      `${slug} on the mirror`,
      20_000,
    );
  const served = (bytes: Buffer) => {
    pictures.set(`/images/${sha256(bytes)}.webp`, bytes);
    return `/images/${sha256(bytes)}.webp`;
  };

  beforeAll(async () => {
    up = await publishWorld();
    token = (await up.tokenFor('shown-author', ['publish:*'])).token;
    proxy = createServer((req, res) => {
      void (async () => {
        const path = req.url ?? '/';
        const own = pictures.get(path);
        if (own) return void res.writeHead(200, { 'content-type': 'image/webp' }).end(own);
        const url = new URL(path, 'http://upstream');
        const rewrite = rewrites.get(url.pathname.replace(/^\/api\/plugins\//, ''));
        // A rewritten plugin page answers for any locale asked, as a careless upstream would.
        const answer = await fetch(`${up.app.url}${rewrite ? url.pathname : path}`, { headers: { accept: req.headers.accept ?? '*/*' } });
        let body = Buffer.from(await answer.arrayBuffer());
        if (rewrite && answer.status === 200) {
          const detail = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
          const locale = url.searchParams.get('locale');
          if (locale !== null) localesRead.add(locale);
          rewrite(detail, locale);
          body = Buffer.from(JSON.stringify(detail));
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
        res.end(body);
      })().catch((error: Error) => res.writeHead(500).end(error.message));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    mirror = await startTestApp({
      MIRROR_OF: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      MIRROR_POLL_INTERVAL_MS: '200',
      FETCH_ALLOW_HOSTS: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await mirror?.close();
    await new Promise((resolve) => proxy?.close(resolve));
    await up?.close();
  });

  it('reads only valid README locales, each once, at most 16 of them', async () => {
    const generated = Array.from(
      { length: 1000 },
      (_, i) => `${letter(i, 97)}${letter(Math.floor(i / 26), 97)}-${letter(Math.floor(i / 676), 65)}Z`,
    );
    const junk = 'x'.repeat(36);
    const listed = ['en', junk, 'en', 'EN', 42, 'pt-BR', '../admin', ...generated];
    rewrites.set('polyglot', (detail, locale) => {
      detail.readmeAvailableLocales = listed;
      detail.readmeLocale = locale ?? 'en';
      detail.readmeHtml = `<p>in ${locale ?? 'en'}</p>`;
    });
    await publish('polyglot');
    const mine = await copied('polyglot');
    expect(mine.readmeAvailableLocales).toEqual(['en', 'pt-BR', ...generated.slice(0, 14)]);
    expect([...localesRead].sort()).toEqual(['en', 'pt-BR', ...generated.slice(0, 14)].sort());
    const other = (await request(mirror.url).get('/api/plugins/polyglot?locale=pt-BR').expect(200)).body;
    expect(other).toMatchObject({ readmeLocale: 'pt-BR', readmeHtml: '<p>in pt-BR</p>' });
  });

  it('leaves out README HTML beyond the release budget, and keeps the rest', async () => {
    const huge = `<p>${'a'.repeat(3 * 1024 * 1024)}</p>`;
    rewrites.set('wordy', (detail, locale) => {
      detail.readmeAvailableLocales = ['en', 'fr'];
      detail.readmeLocale = locale ?? 'en';
      detail.readmeHtml = (locale ?? 'en') === 'en' ? huge : '<p>en français</p>';
    });
    await publish('wordy');
    const mine = await copied('wordy');
    expect(mine.readmeAvailableLocales).toEqual(['fr']);
    expect(mine.readmeHtml).toBe('<p>en français</p>');
  });

  it('keeps only pictures that decode as WebP of the size upstream gives, within the byte caps', async () => {
    const admin = await userWithSession(mirror, 'shown-root', 'admin');
    await request(mirror.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'images.max_bytes': 2048 })
      .expect(200);
    const icon = served(await picture('webp', 16, 16));
    const goodShot = served(await picture('webp', 24, 12));
    const fakeWebp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4, 0x20), Buffer.from('WEBPVP8 '), randomBytes(200)]);
    const noise = await sharp(randomBytes(64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
      .webp({ lossless: true })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(2048);
    const bad = {
      notWebp: served(fakeWebp),
      wrongSize: served(await picture('webp', 20, 10)),
      oversize: served(noise),
    };
    const five = await Promise.all([30, 31, 32, 33, 34].map((width) => picture('webp', width, 10)));
    rewrites.set('pictured', (detail) => {
      detail.images = {
        icon: { variants: [{ url: icon, width: 16, height: 16 }] },
        screenshots: [
          { index: 0, caption: null, alt: null, variants: [{ url: bad.notWebp, width: 16, height: 16 }] },
          { index: 1, caption: null, alt: null, variants: [{ url: bad.wrongSize, width: 40, height: 20 }] },
          { index: 2, caption: null, alt: null, variants: five.map((bytes, at) => ({ url: served(bytes), width: 30 + at, height: 10 })) },
          { index: 3, caption: null, alt: null, variants: [{ url: bad.oversize, width: 64, height: 64 }] },
          { index: 4, caption: 'kept', alt: null, variants: [{ url: goodShot, width: 24, height: 12 }] },
        ],
      };
    });
    try {
      await publish('pictured');
      const mine = await copied('pictured');
      expect(mine.images.icon).toBeDefined();
      expect(mine.images.screenshots.map((shot) => shot.index)).toEqual([4]);
      await request(mirror.url).get(icon).expect(200);
      await request(mirror.url).get(goodShot).expect(200);
      for (const path of Object.values(bad)) await request(mirror.url).get(path).expect(404);
      await request(mirror.url).get('/api/plugins/pictured/releases/1.0.0').expect(200);
    } finally {
      await request(mirror.url)
        .patch('/api/admin/settings')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .send({ 'images.max_bytes': 10 * 1024 * 1024 })
        .expect(200);
    }
  });
});
