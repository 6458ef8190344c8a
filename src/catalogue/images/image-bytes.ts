/**
 * What a picture's bytes say it is, read from its first bytes (magic numbers), never from the
 * server's Content-Type or the URL's extension. Framework-free.
 */
export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif';

/** Raster formats the registry accepts; `svg` is recognised only to be refused by name. */
export type SniffedFormat = RasterFormat | 'svg';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const AVIF_BRANDS = new Set(['avif', 'avis']);
/** How far into a text file `<svg` is looked for (an XML declaration and comments may come first). */
const SVG_WINDOW = 1024;

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, Math.min(end, bytes.length) - start)).toString('latin1');
}

/** An ISO-BMFF `ftyp` box whose major or a compatible brand is AVIF (a HEIC file is not). */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32BE(0);
  const end = Math.min(bytes.length, boxSize < 16 ? 16 : boxSize, 4096);
  if (AVIF_BRANDS.has(ascii(bytes, 8, 12))) return true;
  for (let at = 16; at + 4 <= end; at += 4) if (AVIF_BRANDS.has(ascii(bytes, at, at + 4))) return true;
  return false;
}

function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = ascii(bytes, 0, SVG_WINDOW)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return (head.startsWith('<') && head.includes('<svg')) || head.startsWith('<svg');
}

/** The format the bytes are, or null when they are none the registry knows. */
export function sniffImageFormat(bytes: Uint8Array): SniffedFormat | null {
  if (bytes.length >= 8 && PNG.equals(Buffer.from(bytes.buffer, bytes.byteOffset, 8))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (isAvif(bytes)) return 'avif';
  if (looksLikeSvg(bytes)) return 'svg';
  return null;
}

/** The format name sharp's `metadata()` reports for each accepted format (AVIF decodes through libheif). */
export const SHARP_FORMAT: Readonly<Record<RasterFormat, string>> = Object.freeze({
  png: 'png',
  jpeg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  avif: 'heif',
});
