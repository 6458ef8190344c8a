import type { PluginEntity } from './entities/plugin.entity';

/** The plugin columns a catalogue answer shows, for hand-written reads (prepared statements) that skip entity hydration. */
export const PLUGIN_ROW_COLUMNS = `p.id, p.slug, p.name, p.description, p.category, p.kind, p.tags, p.license, p.icon, p.latest_version, p.latest_prerelease,
  p.created_at, p.updated_at, p.downloads, p.featured, p.verified_at, p.verified_by, p.extensions, p.repo_url, p.repo_verified, p.metadata`;

export interface PluginRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  category: string | null;
  kind: string | null;
  tags: string[];
  license: string | null;
  icon: string | null;
  latest_version: string | null;
  latest_prerelease: string | null;
  created_at: Date;
  updated_at: Date;
  downloads: string;
  featured: boolean;
  verified_at: Date | null;
  verified_by: string | null;
  extensions: Record<string, unknown> | null;
  repo_url: string;
  repo_verified: boolean;
  metadata: Record<string, unknown>;
}

/** The row as the entity the mappers take (the columns above only; the search columns are never read). */
export function pluginOfRow(row: PluginRow): PluginEntity {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    kind: row.kind,
    tags: row.tags,
    license: row.license,
    icon: row.icon,
    latestVersion: row.latest_version,
    latestPrerelease: row.latest_prerelease,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    downloads: row.downloads,
    featured: row.featured,
    verifiedAt: row.verified_at,
    verifiedBy: row.verified_by,
    extensions: row.extensions,
    repoUrl: row.repo_url,
    repoVerified: row.repo_verified,
    metadata: row.metadata,
  } as PluginEntity;
}
