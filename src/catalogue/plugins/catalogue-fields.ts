import type { Manifest } from '../../lib/manifest';
import type { PluginCatalogueFields } from './plugins.repository';

export type ManifestCatalogueFields = Pick<
  PluginCatalogueFields,
  'name' | 'description' | 'category' | 'kind' | 'tags' | 'license' | 'icon' | 'metadata' | 'extensions'
>;

/** The plugin columns a manifest sets: what the catalogue shows of it. Ingest and the admin refresh both write them. */
export function manifestCatalogueFields(manifest: Manifest, extensions: Record<string, unknown> | null): ManifestCatalogueFields {
  return {
    name: manifest.name,
    description: manifest.description ?? null,
    category: manifest.category ?? null,
    kind: manifest.kind ?? null,
    tags: manifest.tags ?? [],
    license: manifest.license ?? null,
    icon: manifest.icon ?? null,
    metadata: { ...manifest } as Record<string, unknown>,
    extensions,
  };
}
