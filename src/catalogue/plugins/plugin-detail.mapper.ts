import { toCatalogueItemDto } from './catalogue.mapper';
import type { PluginDetailDto, PublicOwnerDto, ReleaseSummaryDto } from './dto/plugin-detail.dto';
import type { PluginEntity } from './entities/plugin.entity';
import type { PluginImagesDto, ServedPictureDto } from './dto/images.dto';
import type { ReleaseEntity, StoredImageVariant, StoredReleaseImages } from './entities/release.entity';
import { imageUrl, LIST_ICON_WIDTH } from './served-images';
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
    log_index: release.logIndex == null ? null : Number(release.logIndex),
  };
}

function pictureOf(variants: readonly StoredImageVariant[], defaultWidth: number): ServedPictureDto {
  const served = [...variants]
    .sort((a, b) => a.width - b.width)
    .map((v) => ({ url: imageUrl(v.sha256), width: v.width, height: v.height }));
  const chosen = served.find((v) => v.width === defaultWidth) ?? served[served.length - 1];
  return { ...chosen, variants: served };
}

/** The shown release's served pictures; a release ingested before pictures were fetched has none. */
export function toPluginImagesDto(images: StoredReleaseImages | null | undefined): PluginImagesDto {
  const icon = images?.icon && images.icon.variants.length > 0 ? pictureOf(images.icon.variants, LIST_ICON_WIDTH) : undefined;
  const screenshots = (images?.screenshots ?? [])
    .filter((s) => s.variants.length > 0)
    .map((s) => ({ ...pictureOf(s.variants, Number.POSITIVE_INFINITY), index: s.index, caption: s.caption, alt: s.alt }));
  return icon ? { icon, screenshots } : { screenshots };
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
    images: toPluginImagesDto(parts.shown?.images),
    owners: parts.owners,
    releases: parts.releases.map(toReleaseSummaryDto),
    readmeHtml: parts.readme.html,
    readmeLocale: parts.readme.locale,
    readmeAvailableLocales: parts.readme.available,
  };
}
