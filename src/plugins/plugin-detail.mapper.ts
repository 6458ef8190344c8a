import { toCatalogueItemDto } from './catalogue.mapper';
import type { PluginDetailDto, PublicOwnerDto, ReleaseSummaryDto } from './dto/plugin-detail.dto';
import type { PluginEntity } from './entities/plugin.entity';
import type { ReleaseEntity } from './entities/release.entity';
import { publishedByOf } from './release.mapper';

export interface ReadmeView {
  html: string | null;
  locale: string | null;
  available: string[];
}

export function toReleaseSummaryDto(release: ReleaseEntity): ReleaseSummaryDto {
  return {
    version: release.version,
    prerelease: release.prerelease,
    yanked: release.yankedAt !== null,
    yankReason: release.yankReason,
    publishedBy: publishedByOf(release),
    minRuntimeVersion: release.minRuntimeVersion,
    downloads: Number(release.downloads),
    createdAt: release.createdAt.getTime(),
  };
}

/** The public detail: a list item and more; `verifiedBy` only when the caller is an admin. */
export function toPluginDetailDto(
  plugin: PluginEntity,
  parts: { owners: PublicOwnerDto[]; releases: ReleaseEntity[]; shown: ReleaseEntity | undefined; readme: ReadmeView; admin: boolean },
): PluginDetailDto {
  return {
    ...toCatalogueItemDto(plugin),
    repoVerified: plugin.repoVerified,
    ...(parts.admin ? { verifiedBy: plugin.verifiedBy } : {}),
    // The page describes one release, the one it shows the README of: the latest.
    metadata: parts.shown?.manifest ?? plugin.metadata,
    owners: parts.owners,
    releases: parts.releases.map(toReleaseSummaryDto),
    readmeHtml: parts.readme.html,
    readmeLocale: parts.readme.locale,
    readmeAvailableLocales: parts.readme.available,
  };
}
