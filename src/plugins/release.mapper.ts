import type { ReleaseDto } from './dto/release.dto';
import type { ReleaseEntity } from './entities/release.entity';

export function assetDownloadUrl(baseUrl: string, slug: string, version: string, name: string): string {
  return `${baseUrl}/api/plugins/${encodeURIComponent(slug)}/releases/${encodeURIComponent(version)}/assets/${encodeURIComponent(name)}`;
}

export function toReleaseDto(release: ReleaseEntity, slug: string, baseUrl: string): ReleaseDto {
  return {
    slug,
    version: release.version,
    assets: release.assets.map((a) => ({ name: a.name, url: assetDownloadUrl(baseUrl, slug, release.version, a.name), size: a.size })),
    ...(release.integrity ? { integrity: { jws: release.integrity.jws, assets: release.integrity.assets } } : {}),
    yanked: release.yankedAt !== null,
    yankReason: release.yankReason,
    prerelease: release.prerelease,
    minRuntimeVersion: release.minRuntimeVersion,
    manifestSha256: release.manifestSha256,
    createdAt: release.createdAt.getTime(),
  };
}
