import { createHash } from 'node:crypto';
import type { SharpOptions } from 'sharp';
import { type RasterFormat, SHARP_FORMAT, sniffImageFormat } from './image-bytes';
import { ImageRefusal } from './image-refusal';

type SharpFactory = typeof import('sharp');

/** A decoded picture larger than this many pixels is refused before it is decoded (6000 × 4000 = 24 MP). */
export const MAX_INPUT_PIXELS = 24_000_000;

/** Icons: squares (the picture fitted inside, transparent around it), so a list needs one hash per icon. */
export const ICON_WIDTHS: readonly number[] = Object.freeze([64, 128, 256]);
/** The icon width list items and cards show (displayed at 48 CSS px, sharp up to 2.6x). */
export const LIST_ICON_WIDTH = 128;
/** Screenshots: at most these widths, never enlarged; the height follows the aspect ratio. */
export const SCREENSHOT_WIDTHS: readonly number[] = Object.freeze([640, 1280]);
/** A README image through the proxy: one encoding, at most this wide, never enlarged. */
export const PROXY_WIDTHS: readonly number[] = Object.freeze([1280]);

export interface ImagePlan {
  widths: readonly number[];
  /** Fit inside a width × width square (icons), or keep the aspect ratio (screenshots, README images). */
  square: boolean;
}

export const ICON_PLAN: ImagePlan = { widths: ICON_WIDTHS, square: true };
export const SCREENSHOT_PLAN: ImagePlan = { widths: SCREENSHOT_WIDTHS, square: false };
export const PROXY_PLAN: ImagePlan = { widths: PROXY_WIDTHS, square: false };

/** One WebP encoding, named by the SHA-256 of its bytes. */
export interface EncodedImage {
  sha256: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export interface EncodedPicture {
  source: { format: RasterFormat; width: number; height: number };
  /** Widest last; a width the source is too narrow for is left out (never enlarged), except icons. */
  variants: EncodedImage[];
}

let sharpFactory: SharpFactory | null = null;

/**
 * sharp (libvips) is loaded on first use, not at start: the embedded default's idle footprint
 * does not pay for it until a picture is processed. One libvips thread per operation and no
 * operation cache keep its memory low; the work runs on libuv's pool, off the event loop.
 */
function loadSharp(): SharpFactory {
  if (sharpFactory === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require('sharp') as SharpFactory;
    loaded.concurrency(1);
    loaded.cache(false);
    sharpFactory = loaded;
  }
  return sharpFactory;
}

const INPUT: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false, sequentialRead: true };

/**
 * Checks a picture by its bytes and decodes it, then encodes it as WebP at each width of `plan`.
 * The output keeps none of the input's metadata (EXIF, ICC, XMP: sharp strips them unless asked
 * to keep them); EXIF orientation is applied first so the picture stands as it was taken. An
 * animated GIF or WebP gives its first frame. Throws ImageRefusal for anything that is not an
 * accepted raster image, larger than MAX_INPUT_PIXELS, or that does not decode.
 */
export async function encodePicture(bytes: Buffer, plan: ImagePlan): Promise<EncodedPicture> {
  const format = sniffImageFormat(bytes);
  if (format === 'svg') throw new ImageRefusal('svg', 'is an SVG; the registry shows PNG, JPEG, GIF, WebP or AVIF pictures only');
  if (format === null) throw new ImageRefusal('not-an-image', 'is not a PNG, JPEG, GIF, WebP or AVIF picture');
  const sharp = loadSharp();
  let width: number;
  let height: number;
  try {
    // The header only: the pixel bound is checked below, with the size in the message.
    const metadata = await sharp(bytes, { ...INPUT, limitInputPixels: false }).metadata();
    if (metadata.format !== SHARP_FORMAT[format] || !metadata.width || !metadata.height) throw new Error('format mismatch');
    ({ width, height } = metadata);
  } catch {
    throw new ImageRefusal('undecodable', `looks like ${format.toUpperCase()} but does not decode as one`);
  }
  if (width * height > MAX_INPUT_PIXELS)
    throw new ImageRefusal('too-many-pixels', `is ${width} × ${height} pixels; at most ${MAX_INPUT_PIXELS / 1e6} megapixels are accepted`);
  const widths = plan.square ? plan.widths : narrowerWidths(plan.widths, width);
  const variants: EncodedImage[] = [];
  for (const target of widths) {
    try {
      const pipeline = sharp(bytes, INPUT).rotate();
      const resized = plan.square
        ? pipeline.resize({ width: target, height: target, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        : pipeline.resize({ width: target, withoutEnlargement: true });
      const { data, info } = await resized.webp({ quality: 82, effort: 4 }).toBuffer({ resolveWithObject: true });
      variants.push({ sha256: createHash('sha256').update(data).digest('hex'), width: info.width, height: info.height, bytes: data });
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message))
        throw new ImageRefusal('too-many-pixels', `is larger than ${MAX_INPUT_PIXELS / 1e6} megapixels`);
      throw new ImageRefusal('undecodable', `does not decode as ${format.toUpperCase()}`);
    }
  }
  return { source: { format, width, height }, variants };
}

/**
 * Checks a WebP encoding made elsewhere (a mirror's upstream) as ingest checks a picture: with the
 * same decoder bounds, header then every pixel, and it must be exactly `width` × `height`. Null
 * when it is; otherwise why not (the caller leaves it out).
 */
export async function checkWebpEncoding(bytes: Buffer, width: number, height: number): Promise<string | null> {
  if (sniffImageFormat(bytes) !== 'webp') return 'is not WebP';
  const sharp = loadSharp();
  try {
    const metadata = await sharp(bytes, { ...INPUT, limitInputPixels: false }).metadata();
    if (metadata.format !== SHARP_FORMAT.webp) return 'is not WebP';
    if (metadata.width !== width || metadata.height !== height)
      return `is ${metadata.width} × ${metadata.height} pixels, not the ${width} × ${height} upstream gives`;
    await sharp(bytes, INPUT).raw().toBuffer();
    return null;
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) return `is larger than ${MAX_INPUT_PIXELS / 1e6} megapixels`;
    return 'does not decode as WebP';
  }
}

/** The plan's widths the source can fill, and the source's own width when it is narrower than one of them. */
function narrowerWidths(widths: readonly number[], sourceWidth: number): number[] {
  const kept = widths.filter((w) => w <= sourceWidth);
  if (kept.length < widths.length) kept.push(sourceWidth);
  return [...new Set(kept)].sort((a, b) => a - b);
}
