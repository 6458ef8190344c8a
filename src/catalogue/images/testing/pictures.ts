import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A real picture of `width` × `height` in `format`, drawn by sharp (a two-colour gradient-free block). */
export async function picture(
  format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif',
  width = 300,
  height = 200,
  options: { exif?: boolean } = {},
): Promise<Buffer> {
  let image = sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } });
  if (options.exif) image = image.withExif({ IFD0: { Copyright: 'secret-exif-marker', Make: 'TestCam' } });
  if (format === 'jpeg') return image.jpeg().toBuffer();
  if (format === 'gif') return image.gif().toBuffer();
  if (format === 'webp') return image.webp().toBuffer();
  if (format === 'avif') return image.avif({ effort: 0 }).toBuffer();
  return image.png().toBuffer();
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A small PNG whose header claims `width` × `height` (a decompression bomb's shape): a few
 * hundred bytes on the wire, gigabytes if it were decoded.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
);
