/// <reference lib="dom" />
/**
 * Pictures in a real browser: a plugin whose icon, screenshots and README image live on another
 * host shows them all, loaded from this origin under the site's Content-Security-Policy
 * (img-src 'self'), at desktop and phone width; the gallery is reachable by keyboard, and axe-core
 * finds nothing wrong with what it adds.
 */
import sharp from 'sharp';
import request from 'supertest';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { axeViolations } from '../support/axe';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const WIDTHS = [
  ['desktop', 1280],
  ['phone', 375],
] as const;

describeBrowser('web front end: pictures in a browser', () => {
  let w: PublishWorld;
  let pictures: FakeForge;
  let browser: BrowserSession;

  beforeAll(async () => {
    pictures = await new FakeForge().start();
    w = await publishWorld({ FETCH_ALLOW_HOSTS: new URL(pictures.url).host, IMAGE_PROXY_ALLOW_HOSTS: new URL(pictures.url).host });
    const token = (await w.tokenFor('gallery-author', ['publish:*'])).token;
    pictures.file('/icon.png', await picture('png', 256, 256), 'image/png');
    pictures.file('/one.jpg', await picture('jpeg', 1600, 900), 'image/jpeg');
    pictures.file('/two.webp', await picture('webp', 800, 600), 'image/webp');
    pictures.file('/diagram.gif', await picture('gif', 300, 120), 'image/gif');
    w.forge.file(
      '/acme/gallery/raw/1.0.0/README.md',
      `# Gallery\n\nHow it works:\n\n![The diagram](${pictures.url}/diagram.gif)\n`,
      'text/markdown',
    );
    await w
      .push(token, 'gallery', {
        manifest: manifestYaml({
          name: 'gallery',
          version: '1.0.0',
          description: 'A plugin with pictures',
          icon: `${pictures.url}/icon.png`,
          screenshots: [
            { url: `${pictures.url}/one.jpg`, caption: 'The main window', alt: 'Main window with the gallery panel open' },
            { url: `${pictures.url}/two.webp`, alt: 'Settings dialog' },
          ],
        }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'gallery.zip', url: w.forge.asset('/assets/gallery.zip', { size: 100 }) }],
        repoUrl: `${w.forge.url}/acme/gallery`,
      })
      .expect(201);
    // Another colour: an icon is stored by the hash of its encodings, so the two cards' src differ.
    pictures.file(
      '/sketch-icon.png',
      await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 20, g: 160, b: 60, alpha: 1 } } })
        .png()
        .toBuffer(),
      'image/png',
    );
    await w
      .push(token, 'sketchbook', {
        manifest: manifestYaml({
          name: 'sketchbook',
          version: '0.3.0',
          description: 'Drawings, no gallery',
          icon: `${pictures.url}/sketch-icon.png`,
        }),
        manifestSource: 'plugin.yaml',
        version: '0.3.0',
        assets: [{ name: 'sketchbook.zip', url: w.forge.asset('/assets/sketchbook.zip', { size: 100 }) }],
        repoUrl: `${w.forge.url}/acme/sketchbook`,
      })
      .expect(201);
    browser = await openBrowser(w.app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await w?.close();
    await pictures?.stop();
  });

  it('the page keeps images to its own origin', async () => {
    const res = await request(w.app.url).get('/plugins/gallery').expect(200);
    expect(res.headers['content-security-policy']).toMatch(/img-src 'self' data:(;|$)/);
    expect(res.text).not.toContain(pictures.url.replace('http://', 'src="http://'));
  });

  it.each(WIDTHS)('shows the icon, the screenshot gallery and the README image, all loaded (%s)', async (name, width) => {
    const watched = await browser.newPage({ width });
    const { page } = watched;
    await page.goto('/plugins/gallery', { waitUntil: 'networkidle' });

    // Lazy images load as they come into view.
    for (const img of await page.locator('.gallery img').all()) await img.scrollIntoViewIfNeeded();
    await page.locator('.readme img').scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
    const loaded = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('.plugin-icon, .gallery img, .readme img')).map((img) => ({
        cls: img.className || img.closest('.readme, .gallery')?.className,
        alt: img.alt,
        src: img.currentSrc,
        natural: img.naturalWidth,
        complete: img.complete,
      })),
    );
    expect(loaded.map((i) => [i.cls, i.alt])).toEqual([
      ['plugin-icon', ''],
      ['readme', 'The diagram'],
      ['gallery', 'Main window with the gallery panel open'],
      ['gallery', 'Settings dialog'],
    ]);
    for (const img of loaded) {
      expect(img.complete).toBe(true);
      expect(img.natural).toBeGreaterThan(0);
      expect(new URL(img.src).origin).toBe(new URL(w.app.url).origin);
    }
    await expect(page.locator('.gallery figcaption').allTextContents()).resolves.toEqual(['The main window']);

    // Each screenshot is a link to its widest encoding, reached with the Tab key.
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.matches('.gallery a.shot') ?? false);
    }
    expect(reached).toBe(true);
    const href = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).getAttribute('href'));
    expect(href).toMatch(/^\/images\/[0-9a-f]{64}\.webp$/);

    // The parts this feature draws (the whole page is axe's in the accessibility tests).
    const violations = await axeViolations(page, {
      include: [['.plugin-head'], ['section[aria-labelledby="screenshots-heading"]'], ['section[aria-labelledby="readme-heading"]']],
    });
    await watched.screenshot(`pictures-${name}`);
    expect(violations).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('shows the icon on the catalogue cards', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await page.goto('/plugins', { waitUntil: 'networkidle' });
    const icon = page.locator('.plugin-card .card-icon').first();
    await icon.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.plugin-card .card-icon')?.naturalWidth ?? 0) > 0);
    await expect(icon.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBe(128);
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });

  it('keeps the icons on the cards the browse form redraws as the visitor types (the same src as served)', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await page.goto('/plugins', { waitUntil: 'networkidle' });
    const icons = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>('main img')).map((img) => ({
          slug: img.closest('.plugin-card')?.querySelector('h3 a')?.textContent,
          src: img.getAttribute('src'),
          cls: img.className,
        })),
      );
    const served = await icons();
    expect(served.map((i) => i.slug).sort()).toEqual(['gallery', 'sketchbook']);
    expect(new Set(served.map((i) => i.src)).size).toBe(2);
    await page.getByLabel('Search', { exact: true }).pressSequentially('sketch', { delay: 20 });
    await page.locator('#results-count', { hasText: '1 plugin found' }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await expect(page.locator('main img').count()).resolves.toBeGreaterThan(0);
    expect(await icons()).toEqual(served.filter((i) => i.slug === 'sketchbook'));
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.locator('#results-count', { hasText: '2 plugins found' }).waitFor({ timeout: 30_000 });
    expect((await icons()).sort((a, b) => String(a.slug).localeCompare(String(b.slug)))).toEqual(
      served.sort((a, b) => String(a.slug).localeCompare(String(b.slug))),
    );
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('main img')).every((img) => img.complete && img.naturalWidth > 0),
    );
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });
});
