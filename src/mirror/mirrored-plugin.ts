/** The public plugin fields a mirror copies (upstream's GET /api/plugins/:slug). */
export interface UpstreamPlugin {
  slug: string;
  name: string;
  repoUrl: string;
  repoVerified: boolean;
  featured: boolean;
  verifiedAt: number | null;
  deprecated: { message: string; replacement: string | null; since: number } | null;
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

