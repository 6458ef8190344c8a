import { Injectable, Logger, Optional } from '@nestjs/common';
import { badRequest, conflict, DomainError, forbidden, invalid, notFound } from '../../common/errors/domain-error';
import { uniqueViolation } from '../../persistence/unique-violation';
import { IntegrityService } from '../../trust/integrity/integrity.service';
import { KindsService } from '../../catalogue/kinds/kinds.service';
import { checkManifest } from '../../lib/manifest';
import { Metrics, type IngestOutcome } from '../../platform/metrics/metrics';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import type { ReleaseEntity, StoredAsset, StoredIntegrity } from '../../catalogue/plugins/entities/release.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../../catalogue/plugins/releases.repository';
import { stripV, versionKey } from '../../catalogue/plugins/versions';
import { AssetIngest } from './asset-ingest';
import { attestationProblems } from './attestation';
import { IngestProvenance } from './ingest-provenance';
import type { ClaimRequest, IngestRequest, IngestResult, IngestTarget } from './ingest.types';
import { ReadmeIngest } from './readme-ingest';
import { ReleaseImages } from './release-images';
import type { PictureHold } from '../../catalogue/images/picture-budget';
import { type PreparedRelease, ReleaseRecorder } from './release-recorder';

/**
 * The release that is there, so a client whose publish answered 503 (the database went away as it
 * committed, perhaps after all) can tell from its retry's 409 whether the release is its own: same
 * manifest digest, same assets.
 */
const versionExists = (slug: string, key: string, existing: ReleaseEntity | null) =>
  new DomainError(
    'conflict',
    'version-exists',
    `version ${key} of "${slug}" is already published`,
    undefined,
    existing
      ? { release: { version: existing.version, manifestSha256: existing.manifestSha256, publishedAt: existing.createdAt.toISOString() } }
      : {},
  );
/** Nobody hears it (the client is gone); a 400 keeps it out of the failure audit. */
const abandoned = () => badRequest('client-disconnected', 'the client disconnected before the ingest finished; nothing was recorded');

/**
 * The ingest pipeline, one for CI pushes and release webhooks: validate the manifest and the
 * attestation (a provenance bundle up to its subject digests), fetch and hash the assets, check
 * the bundle names them, render the README, sign, then record everything in one
 * transaction. All network work happens before the transaction, so a failure at any step leaves
 * no plugin, no release and no claim behind.
 */
@Injectable()
export class IngestService {
  private readonly logger = new Logger('Ingest');

  constructor(
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly kinds: KindsService,
    private readonly assets: AssetIngest,
    private readonly readmes: ReadmeIngest,
    private readonly pictures: ReleaseImages,
    private readonly integrity: IntegrityService,
    private readonly recorder: ReleaseRecorder,
    private readonly provenance: IngestProvenance,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Ingests one release, timed into the metrics by source and outcome. */
  async ingest(request: IngestRequest): Promise<IngestResult> {
    const started = process.hrtime.bigint();
    let outcome: IngestOutcome = 'failed';
    // Each picture counts against the picture bounds until its encodings are stored (ReleaseImages); release() gives back whatever a failure left.
    const pictureHold = this.pictures.hold(pictureOwner(request));
    try {
      const result = await this.ingestRelease(request, pictureHold);
      outcome = 'published';
      return result;
    } catch (error) {
      if (request.abandon?.aborted) {
        outcome = 'abandoned';
        this.logger.warn(`ingest of ${request.slug} ${request.version} abandoned: its client disconnected; nothing was recorded`);
        throw abandoned();
      }
      // The caller's fault (manifest, rights, a version that exists) is a rejection, not a failure.
      if (
        error instanceof DomainError &&
        ['bad-request', 'unauthorized', 'forbidden', 'not-found', 'conflict', 'invalid', 'gone'].includes(error.kind)
      )
        outcome = 'rejected';
      throw error;
    } finally {
      pictureHold.release();
      this.metrics?.observeIngest(request.source, outcome, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  private async ingestRelease(request: IngestRequest, pictureHold: PictureHold): Promise<IngestResult> {
    const version = stripV(request.version);
    const key = versionKey(version);
    const existing = 'pluginId' in request.target ? await this.existingPlugin(request.target.pluginId, request.slug) : null;
    const published = existing ? await this.releases.findByVersionKey(existing.id, key) : null;
    if (published) throw versionExists(request.slug, key, published);

    const registry = await this.kinds.validationContext();
    const checked = checkManifest(request.manifestText, request.manifestFileName, {
      ...registry,
      tag: request.version,
      // The slug is pinned at the first submit; later a changed name keeps it.
      ...(existing ? {} : { slug: request.slug }),
    });
    const attestation = attestationProblems(request.attestation);
    if (!checked.ok || attestation.length > 0) {
      const violations = [...(checked.ok ? [] : checked.violations), ...attestation];
      throw invalid(
        checked.ok ? 'attestation-invalid' : 'manifest-invalid',
        `the release has ${violations.length} violation(s)`,
        violations,
      );
    }

    const repoUrl = existing ? existing.repoUrl : (request.target as { claim: ClaimRequest }).claim.repoUrl;
    // Everything about the bundle that needs no asset is checked before any asset is fetched, so
    // a refused (or required but missing) bundle costs no download.
    const pending = await this.provenance.verify({
      attestation: request.attestation,
      kind: checked.manifest.kind,
      repoUrl,
      publishedBy: request.publishedBy,
    });
    const stored = await this.assets.fetchAll(request.assets, request.abandon);
    if (request.abandon?.aborted) throw abandoned();
    // Needs the measured digests; before the READMEs and pictures, so a refusal wastes no more fetches.
    const provenance = this.provenance.subjects(pending, stored);
    // Pictures and READMEs together: neither fails the release, both only warn.
    const [readme, pictures] = await Promise.all([
      this.readmes.render(checked.manifest, repoUrl, request.version, request.abandon),
      this.pictures.fetch(checked.manifest, pictureHold, request.abandon),
    ]);
    if (request.abandon?.aborted) throw abandoned();
    const warnings = [...pictures.warnings, ...readme.warnings];
    const integrity = await this.sign(request.slug, version, checked.sha256, stored, request.attestation);
    const prepared: PreparedRelease = {
      slug: request.slug,
      version,
      key,
      source: request.source,
      actor: request.actor,
      publisher: request.publisher,
      manifest: checked.manifest,
      extensions: checked.extensions,
      manifestText: request.manifestText,
      manifestCanonical: checked.canonicalJson,
      manifestSha256: checked.sha256,
      assets: stored,
      attestation: request.attestation ?? null,
      provenance,
      readmes: readme.readmes,
      integrity,
      images: pictures.images,
      encodings: pictures.encodings,
      warnings,
      onClaim: request.onClaim,
      onRecorded: request.onRecorded,
      publishedBy: request.publishedBy ?? (request.source === 'push' ? { kind: 'token' } : { kind: 'webhook' }),
    };
    // The last moment to stop: past it the release is recorded whether anyone hears of it or not.
    if (request.abandon?.aborted) throw abandoned();
    const { plugin, claimed } = await this.recordResolvingRaces(request.target, prepared);
    return { slug: plugin.slug, version, claimed, warnings };
  }

  private async existingPlugin(pluginId: string, slug: string): Promise<PluginEntity> {
    const plugin = await this.plugins.findById(pluginId);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return plugin;
  }

  /**
   * Records the release. A claim that loses a race (a unique violation on the slug or the
   * repository) is re-read: when the winner is this very slug, on this repository, owned by the
   * same user (a CI matrix pushing several versions of a new plugin at once), the release is
   * recorded as an ordinary update; otherwise the loser gets the 403 or 409 it would have got.
   */
  private async recordResolvingRaces(target: IngestTarget, prepared: PreparedRelease): Promise<{ plugin: PluginEntity; claimed: boolean }> {
    try {
      return await this.recorder.record(target, prepared);
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'uq_release_plugin_version_key')
        throw versionExists(prepared.slug, prepared.key, await this.racedRelease(target, prepared.key));
      if (!('claim' in target) || (constraint !== 'uq_plugin_slug' && constraint !== 'uq_plugin_repo_identity')) throw error;
      const winner = await this.claimWinner(target.claim, prepared.slug, constraint);
      try {
        return await this.recorder.record({ pluginId: winner.id }, prepared);
      } catch (retryError) {
        if (uniqueViolation(retryError) === 'uq_release_plugin_version_key')
          throw versionExists(prepared.slug, prepared.key, await this.racedRelease({ pluginId: winner.id }, prepared.key));
        throw retryError;
      }
    }
  }

  /** The release another publish of the same version recorded first; null when it cannot be read now. */
  private async racedRelease(target: IngestTarget, key: string): Promise<ReleaseEntity | null> {
    if (!('pluginId' in target)) return null;
    return this.releases.findByVersionKey(target.pluginId, key).catch(() => null);
  }

  private async claimWinner(claim: ClaimRequest, slug: string, constraint: string): Promise<PluginEntity> {
    const winner =
      constraint === 'uq_plugin_slug' ? await this.plugins.findBySlug(slug) : await this.plugins.findByRepoIdentity(claim.repoIdentity);
    const ownedByClaimer = winner ? await this.plugins.isOwner(winner.id, claim.ownerId) : false;
    if (winner && ownedByClaimer && winner.slug === slug && winner.repoIdentity === claim.repoIdentity) return winner;
    if (constraint === 'uq_plugin_repo_identity') throw conflict('repo-claimed', 'this repository is already claimed by another slug');
    if (winner && !ownedByClaimer) throw forbidden(`"${slug}" belongs to someone else`);
    throw conflict('slug-taken', `"${slug}" was claimed by another push for a different repository`);
  }

  private async sign(
    slug: string,
    version: string,
    manifestSha256: string,
    assets: StoredAsset[],
    attestation: unknown | null,
  ): Promise<StoredIntegrity> {
    // Assets past the hash budget are recorded but left out of the signed list; every signed
    // asset carries the attestation (spec), which is stored once, on the release.
    const signed = assets
      .filter((a) => a.hashed)
      .map((a) => ({ name: a.name, sha256: a.sha256!, size: a.size, contentType: a.contentType, arch: a.arch, os: a.os }));
    const signature = await this.integrity.signRelease({
      slug,
      version,
      manifest_sha256: manifestSha256,
      assets: signed.map((a) => ({ ...a, attestation })),
    });
    return { jws: signature.jws, kid: signature.kid, assets: signed };
  }
}

/** Whose picture bound a release counts against: the pushing user; for a webhook, the claimer or the plugin. */
function pictureOwner(request: IngestRequest): string {
  if (request.publisher) return `user:${request.publisher.userId}`;
  return 'claim' in request.target ? `user:${request.target.claim.ownerId}` : `plugin:${request.target.pluginId}`;
}
