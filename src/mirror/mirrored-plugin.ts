import { SPEC_MANIFEST_FIELDS } from '../lib/manifest/rules';

/** The public plugin fields a mirror copies (upstream's GET /api/plugins/:slug). */
export interface UpstreamPlugin {
  slug: string;
  name: string;
  repoUrl: string;
  repoVerified: boolean;
  featured: boolean;
  verifiedAt: number | null;
  deprecated: { message: string; replacement: string | null; since: number } | null;
  /** The shown release's manifest fields (its `version` says which release that is). */
  metadata?: Record<string, unknown>;
  readmeHtml?: string | null;
  readmeLocale?: string | null;
  readmeAvailableLocales?: unknown[];
  /** The shown release's pictures as upstream serves them (`/images/<sha256>.webp`). */
  images?: { icon?: UpstreamPicture; screenshots?: (UpstreamPicture & { index: number; caption?: unknown; alt?: unknown })[] };
}

/** A picture in upstream's plugin detail: its encodings, each named by the SHA-256 of its bytes. */
export interface UpstreamPicture {
  variants?: { url?: unknown; width?: unknown; height?: unknown }[];
}

/** The plugin row's fields from upstream's public plugin detail: no owner, upstream's flags. */
export function mirroredPluginFields(detail: UpstreamPlugin) {
  const repoUrl = detail.repoUrl;
  return {
    slug: detail.slug,
    name: detail.name,
    repoUrl,
    repoIdentity: `mirror:${repoUrl.toLowerCase().replace(/(\.git)?\/*$/, '')}`,
    repoVerified: detail.repoVerified,
    featured: detail.featured,
    verifiedAt: detail.verifiedAt === null ? null : new Date(detail.verifiedAt),
    deprecatedAt: detail.deprecated ? new Date(detail.deprecated.since) : null,
    deprecationMessage: detail.deprecated?.message ?? null,
    deprecatedReplacement: detail.deprecated?.replacement ?? null,
  };
}

/**
 * A verified manifest as a release row keeps it: the format's fields, and the rest as the
 * release's extension fields. Upstream accepted the manifest, so every other top-level field is
 * one its kinds declared; the values are the signed bytes', never upstream's unsigned answers.
 */
export function splitSignedManifest(parsed: Record<string, unknown>): {
  manifest: Record<string, unknown>;
  extensions: Record<string, unknown> | null;
} {
  const manifest: Record<string, unknown> = {};
  const extensions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) (Object.hasOwn(SPEC_MANIFEST_FIELDS, key) ? manifest : extensions)[key] = value;
  return { manifest, extensions: Object.keys(extensions).length > 0 ? extensions : null };
}
