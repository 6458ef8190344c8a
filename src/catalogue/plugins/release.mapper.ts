import { signedAssetsOf } from '../../lib/integrity';
import type { ReleaseDto, ReleaseProvenanceDto } from './dto/release.dto';
import type { PublishedBy, ReleaseEntity } from './entities/release.entity';

/** Releases recorded before `published_by` was kept say it through their source. */
export function publishedByOf(release: ReleaseEntity): PublishedBy {
  if (release.publishedBy) return release.publishedBy;
  return release.source === 'push' ? { kind: 'token' } : { kind: 'webhook' };
}

export function toReleaseProvenanceDto(release: ReleaseEntity): ReleaseProvenanceDto {
  return {
    status: release.provenanceStatus,
    repository: release.provenanceRepository,
    workflow: release.provenanceWorkflow,
    ref: release.provenanceRef,
    issuer: release.provenanceIssuer,
    signedAt: release.provenanceSignedAt?.getTime() ?? null,
  };
}

export function assetDownloadUrl(baseUrl: string, slug: string, version: string, name: string): string {
  return `${baseUrl}/api/plugins/${encodeURIComponent(slug)}/releases/${encodeURIComponent(version)}/assets/${encodeURIComponent(name)}`;
}

export function toReleaseDto(release: ReleaseEntity, slug: string, baseUrl: string): ReleaseDto {
  return {
    slug,
    version: release.version,
    assets: release.assets.map((a) => ({
      name: a.name,
      url: assetDownloadUrl(baseUrl, slug, release.version, a.name),
      size: a.size,
      hashed: a.hashed,
    })),
    ...(release.integrity
      ? {
          integrity: {
            jws: release.integrity.jws,
            // Spec: "the same list" as the signed payload's assets, so it is read from the payload
            // itself, member for member; the stored copy (attestation kept once, on the release)
            // only stands in for a signature that no longer decodes.
            assets:
              signedAssetsOf(release.integrity.jws) ??
              release.integrity.assets.map((a) => ({ ...a, attestation: release.attestation ?? null })),
          },
        }
      : {}),
    log_index: release.logIndex == null ? null : Number(release.logIndex),
    yanked: release.yankedAt !== null,
    publishedBy: publishedByOf(release),
    provenance: toReleaseProvenanceDto(release),
    yankReason: release.yankReason,
    prerelease: release.prerelease,
    minRuntimeVersion: release.minRuntimeVersion,
    manifestSha256: release.manifestSha256,
    downloads: Number(release.downloads),
    createdAt: release.createdAt.getTime(),
  };
}
