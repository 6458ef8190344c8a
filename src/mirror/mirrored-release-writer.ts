import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { ImagesRepository } from '../catalogue/images/images.repository';
import type { VerifiedUpstreamRelease } from '../lib/mirror';
import type { PluginEntity } from '../catalogue/plugins/entities/plugin.entity';
import type { PublishedBy } from '../catalogue/plugins/entities/release.entity';
import { ReleaseReadmesRepository } from '../catalogue/plugins/release-readmes.repository';
import { ReleasesRepository } from '../catalogue/plugins/releases.repository';
import { isPrerelease, versionKey, versionSortKey } from '../catalogue/plugins/versions';
import { splitSignedManifest, type UpstreamPlugin } from './mirrored-plugin';
import { type UpstreamPresentation, UpstreamPresentationReader } from './upstream-presentation';

/** The release record's fields a mirror copies besides what it verifies. */
interface UpstreamReleaseFields {
  yanked?: boolean;
  yankReason?: string | null;
  publishedBy?: PublishedBy;
  minRuntimeVersion?: string | null;
  log_index?: unknown;
}

/**
 * Upstream's transparency-log entry of the release's signature (its `log_index`), or null. Not
 * checked here: it is only where a verifier asks upstream's log (which the mirror passes on) for
 * the inclusion proof, and the proof fails for a wrong one.
 */
export function upstreamLogIndex(release: object): number | null {
  const index = (release as UpstreamReleaseFields).log_index;
  return typeof index === 'number' && Number.isSafeInteger(index) && index >= 0 ? index : null;
}

/** Upstream's plugin page as read, and what it shows of its shown release (null: that could not be read). */
export interface ShownUpstream {
  detail: UpstreamPlugin;
  shown: UpstreamPresentation | null;
}

/** The provenance columns of a copied release: its attestation, if any, is carried but not verified here. */
function unverifiedProvenance(attested: boolean) {
  return {
    provenanceStatus: attested ? ('unverified' as const) : ('absent' as const),
    provenanceRepository: null,
    provenanceWorkflow: null,
    provenanceRef: null,
    provenanceIssuer: null,
    provenanceSignedAt: null,
  };
}

/** Writes a verified upstream release as this registry's own row, with what upstream shows of it. */
@Injectable()
export class MirroredReleaseWriter {
  private readonly logger = new Logger('Mirror');

  constructor(
    private readonly releases: ReleasesRepository,
    private readonly readmes: ReleaseReadmesRepository,
    private readonly images: ImagesRepository,
    private readonly presentation: UpstreamPresentationReader,
    private readonly clock: Clock,
  ) {}

  /**
   * Upstream's README renderings of the release its page shows. Not evidence of anything: one that
   * cannot be read leaves the release without it (a warning), it does not hold the feed up.
   */
  async readPresentation(upstream: string, detail: UpstreamPlugin): Promise<UpstreamPresentation | null> {
    try {
      return await this.presentation.read(upstream, detail);
    } catch (error) {
      this.logger.warn(`${detail.slug}: upstream's README could not be read, copied without it: ${(error as Error).message}`);
      return null;
    }
  }

  /** Inserts a verified upstream release: upstream's JWS as is, its log index, the signed manifest, upstream's README when given. */
  async insert(
    plugin: PluginEntity,
    verified: VerifiedUpstreamRelease,
    shown: UpstreamPresentation | null,
    manager: EntityManager,
  ): Promise<void> {
    const { release, payload, manifest, kid } = verified;
    const fields = release as typeof release & UpstreamReleaseFields;
    const manifestCanonical = Buffer.from(manifest).toString('utf8');
    const parsed = JSON.parse(manifestCanonical) as Record<string, unknown>;
    const split = splitSignedManifest(parsed);
    const signed = new Map(payload.assets.map((asset) => [asset.name, asset]));
    if (shown) await this.images.putAll(shown.encodings, manager);
    const inserted = await this.releases.insert(
      {
        pluginId: plugin.id,
        version: release.version,
        versionKey: versionKey(release.version),
        versionSort: versionSortKey(release.version),
        prerelease: isPrerelease(release.version),
        minRuntimeVersion: fields.minRuntimeVersion ?? (typeof parsed.min_runtime_version === 'string' ? parsed.min_runtime_version : null),
        // Downloads go to upstream's asset route: the bytes checked are the bytes it serves.
        assets: release.assets.map((asset) => {
          const entry = signed.get(asset.name)!;
          return {
            name: asset.name,
            url: asset.url,
            size: entry.size,
            sha256: entry.sha256,
            hashed: true,
            contentType: entry.contentType,
            os: entry.os,
            arch: entry.arch,
          };
        }),
        extensions: split.extensions,
        integrity: { jws: release.integrity!.jws, kid, assets: payload.assets.map(({ attestation: _attestation, ...asset }) => asset) },
        attestation: payload.assets.find((asset) => asset.attestation)?.attestation ?? null,
        // The mirror checks signatures and digests, not provenance: upstream's verdict is not ours to repeat.
        ...unverifiedProvenance(payload.assets.some((asset) => asset.attestation)),
        manifest: split.manifest,
        manifestRaw: manifestCanonical,
        manifestCanonical,
        manifestSha256: payload.manifest_sha256,
        source: fields.publishedBy?.kind === 'webhook' ? 'webhook' : 'push',
        publishedBy: fields.publishedBy ?? null,
        images: shown?.images ?? { icon: null, screenshots: [] },
      },
      manager,
    );
    const logIndex = upstreamLogIndex(release);
    if (logIndex !== null) await this.releases.setLogIndex(inserted.id, logIndex, manager);
    if (fields.yanked) await this.releases.setYanked(inserted.id, this.clock.now(), fields.yankReason ?? null, manager);
    if (shown) await this.readmes.insertForRelease(inserted.id, shown.readmes, manager);
  }

  /**
   * Gives the release upstream's page shows, when it is copied here, upstream's README renderings
   * and pictures as shown now; true when it did (the caller recomputes the listing).
   */
  async applyShown(pluginId: string, view: ShownUpstream | null, manager: EntityManager): Promise<boolean> {
    const version = view?.detail.metadata?.version;
    if (!view?.shown || typeof version !== 'string') return false;
    const release = await this.releases.findByVersionKey(pluginId, versionKey(version), manager);
    if (!release) return false;
    await this.images.putAll(view.shown.encodings, manager);
    await this.releases.setImages(release.id, view.shown.images, manager);
    await this.readmes.replaceForRelease(release.id, Object.keys(view.shown.readmes), view.shown.readmes, manager);
    return true;
  }
}
