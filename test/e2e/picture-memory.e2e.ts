/**
 * Pictures cannot take the memory: with small PICTURE_MEMORY_BYTES and
 * PICTURE_MEMORY_BYTES_PER_USER, concurrent pushes of many pictures never hold more than the
 * bounds (the fetcher's own accounting: downloads as they arrive, sources being decoded, encodings
 * until they are stored), every release still publishes, and the pictures past a bound are left
 * out with a warning. Once the ingests end, nothing is held. Each picture is stored as soon as it
 * is encoded, so what one instance holds is the pictures in their turns, not every release's.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { PictureFetcher } from '../../src/catalogue/images/picture-fetcher';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const KiB = 1024;
/** Less than two pictures' sources at once: a second user's download in the other turn is refused. */
const INSTANCE_BOUND = 400 * KiB;
/** One picture at a time for one user. */
const PER_USER_BOUND = 300 * KiB;
const SIDE = 300;

describe('picture memory under concurrent pushes', () => {
  let w: PublishWorld;
  let pictures: FakeForge;
  let size: number;

  beforeAll(async () => {
    pictures = await new FakeForge().start();
    w = await publishWorld({
      FETCH_ALLOW_HOSTS: new URL(pictures.url).host,
      PICTURE_MEMORY_BYTES: String(INSTANCE_BOUND),
      PICTURE_MEMORY_BYTES_PER_USER: String(PER_USER_BOUND),
    });
    // Noise neither compresses nor encodes small: about 270 KB each, as source and as encodings.
    const png = await sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    size = png.length;
    for (let i = 0; i < 8; i++) pictures.file(`/noise-${i}.png`, png, 'image/png');
  });
  afterAll(async () => {
    await w?.close();
    await pictures?.stop();
  });

  it('never holds more than the bounds, publishes every release and names each picture left out', async () => {
    const budget = w.app.app.get(PictureFetcher).budget;
    expect([budget.instanceBytes, budget.ownerBytes]).toEqual([INSTANCE_BOUND, PER_USER_BOUND]);
    const users = [
      await w.tokenFor('memory-a', ['publish:*']),
      await w.tokenFor('memory-b', ['publish:*']),
      await w.tokenFor('memory-c', ['publish:*']),
    ];
    const pushes = Array.from({ length: 6 }, (_, i) => {
      const slug = `memory-${i}`;
      const asset = w.forge.asset(`/assets/${slug}.zip`, { size: 100 });
      return w
        .push(users[i % users.length].token, slug, {
          manifest: manifestYaml({
            name: slug,
            version: '1.0.0',
            icon: `${pictures.url}/noise-0.png`,
            screenshots: Array.from({ length: 7 }, (_, s) => ({ url: `${pictures.url}/noise-${s + 1}.png` })),
          }),
          manifestSource: 'plugin.yaml',
          version: '1.0.0',
          assets: [{ name: `${slug}.zip`, url: asset }],
          repoUrl: `${w.forge.url}/acme/${slug}`,
        })
        .then((res) => ({ slug, res }));
    });
    const results = await Promise.all(pushes);

    for (const { res } of results) expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    // (A README that is not there is a warning too: not counted here.)
    const warnings = results
      .flatMap(({ res }) => res.body.warnings as string[])
      .filter((warning) => /^(icon|screenshot \d+) /.test(warning));
    const leftOut = warnings.filter((warning) =>
      /was left out: the registry was already holding as many picture bytes as it may at once/.test(warning),
    );
    // 48 pictures of ~270 KB, two in their turns at once, against a 400 KiB bound: some cannot be held.
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut.length).toBe(warnings.length);
    expect(leftOut.some((warning) => warning.includes('(400 KiB in all)')) || leftOut.some((warning) => warning.includes('(300 KiB'))).toBe(
      true,
    );

    expect(budget.peak).toBeLessThanOrEqual(INSTANCE_BOUND);
    expect(budget.peakPerOwner).toBeLessThanOrEqual(PER_USER_BOUND);
    // The bound was reached for real, not by holding nothing.
    expect(budget.peak).toBeGreaterThan(INSTANCE_BOUND / 2);
    expect(budget.held).toBe(0);

    // What was kept is served; what was left out is not listed.
    let kept = 0;
    for (const { slug } of results) {
      const detail = (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body;
      kept += detail.images.screenshots.length + (detail.images.icon ? 1 : 0);
    }
    expect(kept).toBeGreaterThan(0);
    expect(kept + leftOut.length).toBe(48);
    expect(size).toBeGreaterThan(200 * KiB);
  });
});
