import { sniffImageFormat } from './image-bytes';
import { picture, SVG } from './testing/pictures';

describe('sniffImageFormat', () => {
  it.each(['png', 'jpeg', 'gif', 'webp', 'avif'] as const)('knows %s by its bytes', async (format) => {
    expect(sniffImageFormat(await picture(format, 20, 10))).toBe(format);
  });

  it('knows SVG (to refuse it), after a BOM, an XML declaration or a comment', () => {
    expect(sniffImageFormat(SVG)).toBe('svg');
    expect(sniffImageFormat(Buffer.from('\uFEFF<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('svg');
    expect(sniffImageFormat(Buffer.from('  <!-- drawn by hand -->\n<svg/>'))).toBe('svg');
  });

  it('knows nothing else, whatever a server would call it', () => {
    expect(sniffImageFormat(Buffer.from('<!doctype html><html><body>Not found</body></html>'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('{"error":"nope"}'))).toBeNull();
    expect(sniffImageFormat(Buffer.alloc(0))).toBeNull();
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffImageFormat(Buffer.from('BM6\u0000\u0000\u0000'))).toBeNull(); // BMP is not accepted
  });

  it('tells AVIF from other ISO-BMFF files (HEIC, MP4)', () => {
    const box = (major: string, ...compatible: string[]) => {
      const size = 16 + 4 * compatible.length;
      const bytes = Buffer.alloc(size);
      bytes.writeUInt32BE(size, 0);
      bytes.write('ftyp', 4, 'latin1');
      bytes.write(major, 8, 'latin1');
      compatible.forEach((brand, i) => bytes.write(brand, 16 + 4 * i, 'latin1'));
      return bytes;
    };
    expect(sniffImageFormat(box('avif', 'mif1'))).toBe('avif');
    expect(sniffImageFormat(box('mif1', 'miaf', 'avif'))).toBe('avif');
    expect(sniffImageFormat(box('heic', 'mif1'))).toBeNull();
    expect(sniffImageFormat(box('isom', 'mp41'))).toBeNull();
  });
});
