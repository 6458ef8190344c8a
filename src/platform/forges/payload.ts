import type { ReleaseAssetRef } from './webhook.types';

/** Reading untrusted JSON payloads without trusting their shape. */
export type Json = Record<string, unknown>;

export function record(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

export function field(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) current = record(current)?.[key];
  return current;
}

export function text(value: unknown, ...path: string[]): string | null {
  const found = field(value, ...path);
  return typeof found === 'string' && found !== '' ? found : null;
}

/** `[{<nameKey>, <urlKey>}]` items with both strings; anything else is skipped. */
export function assetList(value: unknown, nameKey: string, urlKey: string): ReleaseAssetRef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const name = text(item, nameKey);
    const url = text(item, urlKey);
    return name && url ? [{ name, url }] : [];
  });
}
