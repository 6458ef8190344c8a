import type { StoredReleaseImages } from './entities/release.entity';
import { toPluginImagesDto } from './plugin-detail.mapper';
import { imageUrl, listIconSha256 } from './served-images';

const sha = (c: string) => c.repeat(64);
const icon = (widths: number[]) => ({ variants: widths.map((w, i) => ({ width: w, height: w, sha256: sha(String(i)) })) });

describe('served pictures', () => {
  it('lists the 128 px icon, else the closest width, else none', () => {
    expect(listIconSha256({ icon: icon([64, 128, 256]), screenshots: [] })).toBe(sha('1'));
    expect(listIconSha256({ icon: icon([64, 256]), screenshots: [] })).toBe(sha('0'));
    expect(listIconSha256({ icon: null, screenshots: [] })).toBeNull();
    expect(listIconSha256(null)).toBeNull();
  });

  it('answers the detail: the icon at every width (url the 128 px one), screenshots at their widest, in manifest order', () => {
    const images: StoredReleaseImages = {
      icon: icon([256, 64, 128]),
      screenshots: [
        {
          index: 0,
          caption: 'One',
          alt: null,
          variants: [
            { width: 1280, height: 640, sha256: sha('a') },
            { width: 640, height: 320, sha256: sha('b') },
          ],
        },
        { index: 2, caption: null, alt: 'Three', variants: [{ width: 500, height: 400, sha256: sha('c') }] },
      ],
    };
    const dto = toPluginImagesDto(images);
    expect(dto.icon).toEqual({
      url: imageUrl(sha('2')),
      width: 128,
      height: 128,
      variants: [64, 128, 256].map((w) => ({ url: imageUrl(sha(String([256, 64, 128].indexOf(w)))), width: w, height: w })),
    });
    expect(dto.screenshots).toEqual([
      {
        index: 0,
        caption: 'One',
        alt: null,
        url: imageUrl(sha('a')),
        width: 1280,
        height: 640,
        variants: [
          { url: imageUrl(sha('b')), width: 640, height: 320 },
          { url: imageUrl(sha('a')), width: 1280, height: 640 },
        ],
      },
      {
        index: 2,
        caption: null,
        alt: 'Three',
        url: imageUrl(sha('c')),
        width: 500,
        height: 400,
        variants: [{ url: imageUrl(sha('c')), width: 500, height: 400 }],
      },
    ]);
  });

  it('has nothing for a release ingested before pictures were fetched', () => {
    expect(toPluginImagesDto(null)).toEqual({ screenshots: [] });
  });
});
