import type { PluginEntity } from './entities/plugin.entity';

/** The plugin columns a catalogue answer shows, in PluginRow's order; the timestamps among them. */
const PLUGIN_COLUMNS = [
  'id',
  'slug',
  'name',
  'description',
  'category',
  'kind',
  'tags',
  'license',
  'icon',
  'icon_image',
  'latest_version',
  'latest_prerelease',
  'created_at',
  'updated_at',
  'downloads',
  'featured',
  'verified_at',
  'verified_by',
  'extensions',
  'repo_url',
  'repo_verified',
  'metadata',
  'deprecated_at',
  'deprecation_message',
  'deprecated_replacement',
] as const satisfies readonly (keyof PluginRow)[];
const TIMESTAMP_COLUMNS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'verified_at', 'deprecated_at']);

/** Those columns of `plugin p`, for hand-written reads (prepared statements) that skip entity hydration. */
export const PLUGIN_ROW_COLUMNS = PLUGIN_COLUMNS.map((column) => `p.${column}`).join(', ');

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
  icon_image: string | null;
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
  deprecated_at: Date | null;
  deprecation_message: string | null;
  deprecated_replacement: string | null;
}

/**
 * A timestamp as whole epoch milliseconds, cut as JavaScript's Date cuts what pg parses: exact on
 * every PostgreSQL version (a double before 14, so the value is cut first and rounded after).
 */
export function epochMsSql(column: string): string {
  return `(extract(epoch FROM date_trunc('milliseconds', ${column})) * 1000)::bigint`;
}

/**
 * The same columns as one JSON object (keys as in PluginRow, timestamps as epoch ms): a read that
 * takes one plugin with more beside it parses one JSON text instead of twenty-two columns, each
 * described by the server, typed and parsed by the driver on every call.
 */
export function pluginJsonSql(alias: string): string {
  const pairs = PLUGIN_COLUMNS.map(
    (column) => `'${column}', ${TIMESTAMP_COLUMNS.has(column) ? epochMsSql(`${alias}.${column}`) : `${alias}.${column}`}`,
  );
  return `json_build_object(${pairs.join(', ')})`;
}

/** PluginRow as pluginJsonSql gives it. */
export type PluginJson = Omit<PluginRow, 'created_at' | 'updated_at' | 'verified_at' | 'deprecated_at' | 'downloads'> & {
  created_at: number;
  updated_at: number;
  verified_at: number | null;
  deprecated_at: number | null;
  downloads: number;
};

/** The JSON object as the row pg would have parsed. */
export function pluginRowOfJson(json: PluginJson): PluginRow {
  return {
    ...json,
    created_at: new Date(json.created_at),
    updated_at: new Date(json.updated_at),
    verified_at: json.verified_at === null ? null : new Date(json.verified_at),
    deprecated_at: json.deprecated_at === null || json.deprecated_at === undefined ? null : new Date(json.deprecated_at),
    downloads: String(json.downloads),
  };
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
    iconImage: row.icon_image,
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
    deprecatedAt: row.deprecated_at,
    deprecationMessage: row.deprecation_message,
    deprecatedReplacement: row.deprecated_replacement,
  } as PluginEntity;
}
