import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import type { Manifest } from '../../lib/manifest';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import { ImagesRepository } from '../../catalogue/images/images.repository';
import type { PublishedBy, StoredAsset, StoredIntegrity, StoredReleaseImages } from '../../catalogue/plugins/entities/release.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { CatalogueListing } from '../../catalogue/plugins/catalogue-listing';
import { type ReadmeRendering, ReleaseReadmesRepository } from '../../catalogue/plugins/release-readmes.repository';
import { ReleasesRepository } from '../../catalogue/plugins/releases.repository';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { isPrerelease, versionSortKey } from '../../catalogue/plugins/versions';
import type { RecordedProvenance } from './ingest-provenance';
import type { ClaimFollowUp, IngestSource, IngestTarget, Publisher, RecordedFollowUp } from './ingest.types';
import { PublisherRights } from './publisher-rights';
import { signatureEntry } from '../../trust/transparency-log/log-entries';
import { TransparencyLog } from '../../trust/transparency-log/transparency-log';

/** Everything the network steps produced, ready to be written in one transaction. */
export interface PreparedRelease {
  slug: string;
  version: string;
  key: string;
  source: IngestSource;
  actor: AuditActor;
  publisher: Publisher | null;
  manifest: Manifest;
  extensions: Record<string, unknown> | null;
  manifestText: string;
  manifestCanonical: string;
  manifestSha256: string;
  assets: StoredAsset[];
  attestation: unknown | null;
  /** The attestation's verification outcome, recorded beside (not in) the signed list. */
  provenance: RecordedProvenance;
  readmes: Record<string, ReadmeRendering>;
  integrity: StoredIntegrity;
  /** The served icon and screenshots, and their encodings (stored already as pending: confirmed here). */
  images: StoredReleaseImages;
  encodings: string[];
  warnings: string[];
  onClaim?: ClaimFollowUp;
  onRecorded?: RecordedFollowUp;
  publishedBy: PublishedBy;
}

/**
 * Writes a prepared release: the claim (if any), the release row, the plugin's catalogue fields
 * and the audit entries, all in one transaction. The publisher's right to publish is checked
 * again inside it, with the token and ownership rows locked, so a token revoked or a slug
 * transferred while the assets were being fetched does not publish. The release's transparency-log
 * entry is appended last, in the same transaction (its lock is held to commit). The response cache
 * serves nothing from before the transaction starts until it is emptied after it ends
 * (ResponseCache.writing): from the commit on, every path answers the new release, on the push
 * path and the webhook worker's alike.
 */
@Injectable()
export class ReleaseRecorder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly readmes: ReleaseReadmesRepository,
    private readonly pictures: ImagesRepository,
    private readonly listing: CatalogueListing,
    private readonly rights: PublisherRights,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly log: TransparencyLog,
    private readonly responses: ResponseCache,
  ) {}

  record(target: IngestTarget, release: PreparedRelease): Promise<{ plugin: PluginEntity; claimed: boolean }> {
    return this.responses.writing(() => this.write(target, release));
  }

  private write(target: IngestTarget, release: PreparedRelease): Promise<{ plugin: PluginEntity; claimed: boolean }> {
    return this.dataSource.transaction(async (manager) => {
      if (release.publisher)
        await this.rights.assertStillAllowed(release.publisher, 'pluginId' in target ? target.pluginId : null, manager);
      const claimed = 'claim' in target;
      const plugin = 'claim' in target ? await this.claim(target, release, manager) : await this.plugins.findById(target.pluginId, manager);
      if (!plugin) throw new DomainError('not-found', 'not-found', `"${release.slug}" no longer exists`);
      const inserted = await this.releases.insert(
        {
          pluginId: plugin.id,
          version: release.version,
          versionKey: release.key,
          versionSort: versionSortKey(release.version),
          prerelease: isPrerelease(release.version),
          minRuntimeVersion: release.manifest.min_runtime_version ?? null,
          assets: release.assets,
          extensions: release.extensions,
          integrity: release.integrity,
          attestation: release.attestation,
          provenanceStatus: release.provenance.status,
          provenanceRepository: release.provenance.repository,
          provenanceWorkflow: release.provenance.workflow,
          provenanceRef: release.provenance.ref,
          provenanceIssuer: release.provenance.issuer,
          provenanceSignedAt: release.provenance.signedAt,
          manifest: release.manifest as unknown as Record<string, unknown>,
          manifestRaw: release.manifestText,
          manifestCanonical: release.manifestCanonical,
          manifestSha256: release.manifestSha256,
          source: release.source,
          publishedBy: release.publishedBy,
          images: release.images,
        },
        manager,
      );
      await this.pictures.confirm(release.encodings, manager);
      await this.readmes.insertForRelease(inserted.id, release.readmes, manager);
      // What the catalogue shows follows the latest release, not this one: a backport or a
      // prerelease leaves it alone. The release time is this publish's (sort=updated).
      await this.listing.recompute(plugin.id, manager, { latestReleaseAt: this.clock.now() });
      await this.audit.record(
        {
          action: 'plugin.publish',
          actor: release.actor,
          slug: plugin.slug,
          details: {
            version: release.version,
            source: release.source,
            assets: release.assets.length,
            kid: release.integrity.kid,
            publishedBy: release.publishedBy,
            provenance: release.provenance.status,
            ...(release.warnings.length ? { warnings: release.warnings } : {}),
          },
        },
        manager,
      );
      const logIndex = await this.log.append(
        signatureEntry('release', { slug: plugin.slug, version: release.version, kid: release.integrity.kid, jws: release.integrity.jws }),
        manager,
        inserted.id,
      );
      await this.releases.setLogIndex(inserted.id, logIndex, manager);
      await this.plugins.advanceLogSize(plugin.id, logIndex, manager);
      await release.onRecorded?.(release.version, manager);
      return { plugin, claimed };
    });
  }

  private async claim(
    target: Extract<IngestTarget, { claim: unknown }>,
    release: PreparedRelease,
    manager: EntityManager,
  ): Promise<PluginEntity> {
    const { repoUrl, repoIdentity, repoVerified, ownerId } = target.claim;
    const plugin = await this.plugins.insertClaimed(
      { slug: release.slug, name: release.manifest.name, repoUrl, repoIdentity, repoVerified },
      ownerId,
      manager,
    );
    await this.audit.record(
      { action: 'plugin.claim', actor: release.actor, slug: release.slug, details: { repoUrl, repoVerified, version: release.version } },
      manager,
    );
    await release.onClaim?.(plugin.id, manager);
    return plugin;
  }
}
