import type { StoredImageVariant, StoredReleaseImages } from './entities/release.entity';

/** The width of the icon encoding list items show (cards display it at 48 CSS px). */
export const LIST_ICON_WIDTH = 128;

/** Where this registry serves an encoding: the hash of its bytes is the name, so it never changes. */
export function imageUrl(sha256: string): string {
  return `/images/${sha256}.webp`;
}

/** The icon encoding a list item names: the one LIST_ICON_WIDTH wide, else the closest. */
export function listIconSha256(images: StoredReleaseImages | null | undefined): string | null {
  const variants = images?.icon?.variants ?? [];
  if (variants.length === 0) return null;
  const distance = (v: StoredImageVariant) => Math.abs(v.width - LIST_ICON_WIDTH);
  return variants.reduce((best, v) => (distance(v) < distance(best) ? v : best)).sha256;
}
