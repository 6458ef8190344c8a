import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { encodePicture, ICON_PLAN, MAX_INPUT_PIXELS, PROXY_PLAN, SCREENSHOT_PLAN } from './image-encoder';
import { ImageRefusal } from './image-refusal';
import { picture, pngClaiming, SVG } from './testing/pictures';

async function refusal(promise: Promise<unknown>): Promise<ImageRefusal> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageRefusal);
  return error as ImageRefusal;
}

describe('encodePicture', () => {
  it('encodes an icon as WebP squares of 64, 128 and 256 px, each named by the hash of its bytes', async () => {
    const encoded = await encodePicture(await picture('png', 300, 200), ICON_PLAN);
    expect(encoded.source).toEqual({ format: 'png', width: 300, height: 200 });
    expect(encoded.variants.map((v) => [v.width, v.height])).toEqual([
      [64, 64],
      [128, 128],
      [256, 256],
    ]);
    for (const variant of encoded.variants) {
      expect(variant.sha256).toBe(createHash('sha256').update(variant.bytes).digest('hex'));
      const meta = await sharp(variant.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', variant.width, variant.height]);
    }
  });

  it('never enlarges a screenshot: a narrow one keeps its own width', async () => {
    const wide = await encodePicture(await picture('jpeg', 2000, 1000), SCREENSHOT_PLAN);
    expect(wide.variants.map((v) => [v.width, v.height])).toEqual([
      [640, 320],
      [1280, 640],
    ]);
    const narrow = await encodePicture(await picture('webp', 800, 400), SCREENSHOT_PLAN);
    expect(narrow.variants.map((v) => [v.width, v.height])).toEqual([
      [640, 320],
      [800, 400],
    ]);
    const tiny = await encodePicture(await picture('gif', 100, 50), PROXY_PLAN);
    expect(tiny.variants.map((v) => v.width)).toEqual([100]);
  });

  it('accepts every format it sniffs: PNG, JPEG, GIF, WebP and AVIF', async () => {
    for (const format of ['png', 'jpeg', 'gif', 'webp', 'avif'] as const) {
      const encoded = await encodePicture(await picture(format, 40, 30), PROXY_PLAN);
      expect(encoded.source.format).toBe(format);
    }
  });

  it("keeps nothing of the original's metadata", async () => {
    const withExif = await picture('jpeg', 700, 400, { exif: true });
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    expect(withExif.includes('secret-exif-marker')).toBe(true);
    const encoded = await encodePicture(withExif, SCREENSHOT_PLAN);
    for (const variant of encoded.variants) {
      const meta = await sharp(variant.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(variant.bytes.includes('secret-exif-marker')).toBe(false);
    }
  });

  it('refuses SVG by name, and bytes that are no picture', async () => {
    expect((await refusal(encodePicture(SVG, ICON_PLAN))).reason).toBe('svg');
    expect((await refusal(encodePicture(Buffer.from('<html>404</html>'), ICON_PLAN))).reason).toBe('not-an-image');
  });

  it('refuses bytes that start like a picture but do not decode', async () => {
    const png = await picture('png', 50, 50);
    const corrupt = Buffer.concat([png.subarray(0, 8), Buffer.from('this is not a PNG chunk stream at all')]);
    expect((await refusal(encodePicture(corrupt, ICON_PLAN))).reason).toBe('undecodable');
    const jpeg = await picture('jpeg', 50, 50);
    expect((await refusal(encodePicture(Buffer.concat([jpeg.subarray(0, 3), Buffer.alloc(64)]), ICON_PLAN))).reason).toBe('undecodable');
  });

  it('refuses more pixels than MAX_INPUT_PIXELS from the header, before decoding', async () => {
    const side = Math.ceil(Math.sqrt(MAX_INPUT_PIXELS)) + 1;
    const bomb = pngClaiming(side, side);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const error = await refusal(encodePicture(bomb, SCREENSHOT_PLAN));
    expect(error.reason).toBe('too-many-pixels');
    expect(error.message).toContain(`${side} × ${side}`);
  });
});
