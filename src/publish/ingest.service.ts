import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { AuditService, type AuditActor } from '../audit/audit.service';
import { conflict, invalid } from '../common/errors/domain-error';
import { IntegrityService } from '../integrity/integrity.service';
import { KindsService } from '../kinds/kinds.service';
import { checkManifest, type Manifest } from '../lib/manifest';
import type { PluginEntity } from '../plugins/entities/plugin.entity';
import type { StoredAsset, StoredIntegrity } from '../plugins/entities/release.entity';
import { PluginsRepository } from '../plugins/plugins.repository';
import { ReleasesRepository } from '../plugins/releases.repository';
import { bySemverDescending, isPrerelease, stripV, versionKey } from '../plugins/versions';
import { AssetIngest, type DeclaredAsset } from './asset-ingest';
import { ReadmeIngest } from './readme-ingest';

/** One release to ingest, from a CI push or a release webhook. */
export interface IngestRequest {
  slug: string;
  /** The version or tag as given; a leading `v` is dropped. */
  version: string;
  manifestText: string;
  manifestFileName: string;
  assets: DeclaredAsset[];
  attestation: unknown | null;
  source: 'push' | 'webhook';
  actor: AuditActor;
  /** The existing plugin, or the claim to make: this repository, owned by `ownerId`. */
  target: { plugin: PluginEntity } | { claim: { repoUrl: string; repoIdentity: string; ownerId: string } };
}

export interface IngestResult {
  slug: string;
  version: string;
  claimed: boolean;
}

const UNIQUE_VIOLATION = '23505';

function constraintOf(error: unknown): string | null {
  if (!(error instanceof QueryFailedError)) return null;
  const driver = (error as QueryFailedError & { driverError?: { code?: string; constraint?: string } }).driverError;
  return driver?.code === UNIQUE_VIOLATION ? (driver.constraint ?? 'unknown') : null;
}

/** Fields of the manifest that the catalogue shows, from the most recent ingest. */
function catalogueFields(manifest: Manifest, extensions: Record<string, unknown> | null) {
  return {
    name: manifest.name,
    description: manifest.description ?? null,
    category: manifest.category ?? null,
    kind: manifest.kind ?? null,
    tags: manifest.tags ?? [],
    license: manifest.license ?? null,
    icon: manifest.icon ?? null,
    metadata: { ...manifest } as Record<string, unknown>,
    extensions,
  };
}

/**
 * The ingest pipeline: validate the manifest, fetch and hash the assets, render the README,
 * sign, then record everything in one transaction. All network work happens before the
 * transaction, so a failure at any step leaves no plugin, no release and no claim behind.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly kinds: KindsService,
    private readonly assets: AssetIngest,
    private readonly readmes: ReadmeIngest,
    private readonly integrity: IntegrityService,
    private readonly audit: AuditService,
  ) {}

  async ingest(request: IngestRequest): Promise<IngestResult> {
    const version = stripV(request.version);
    const key = versionKey(version);
    const existing = 'plugin' in request.target ? request.target.plugin : null;
    if (existing && (await this.releases.findByVersionKey(existing.id, key))) {
      throw conflict('version-exists', `version ${key} of "${request.slug}" is already published`);
    }

    const registry = await this.kinds.validationContext();
    const checked = checkManifest(request.manifestText, request.manifestFileName, {
      ...registry,
      tag: request.version,
      // The slug is pinned at the first submit; later a changed name keeps it.
      ...(existing ? {} : { slug: request.slug }),
    });
    if (!checked.ok) {
      throw invalid('manifest-invalid', `the manifest has ${checked.violations.length} violation(s)`, checked.violations);
    }

    const stored = await this.assets.fetchAll(request.assets);
    const repoUrl = existing ? existing.repoUrl : (request.target as { claim: { repoUrl: string } }).claim.repoUrl;
    const readmeHtml = await this.readmes.render(checked.manifest, repoUrl, request.version);
    const integrity = await this.sign(request.slug, version, checked.sha256, stored, request.attestation);

    try {
      return await this.record(request, { version, key, manifest: checked.manifest, extensions: checked.extensions, sha256: checked.sha256, stored, readmeHtml, integrity });
    } catch (error) {
      const constraint = constraintOf(error);
      if (constraint === 'uq_release_plugin_version_key') throw conflict('version-exists', `version ${key} of "${request.slug}" is already published`);
      if (constraint === 'uq_plugin_slug') throw conflict('slug-taken', `"${request.slug}" was claimed by another push`);
      if (constraint === 'uq_plugin_repo_identity') throw conflict('repo-claimed', 'this repository is already claimed by another slug');
      throw error;
    }
  }

  private async sign(slug: string, version: string, manifestSha256: string, assets: StoredAsset[], attestation: unknown | null): Promise<StoredIntegrity> {
    // Assets past the hash budget are recorded but left out of the signed list.
    const signedAssets = assets
      .filter((a) => a.hashed)
      .map((a) => ({ name: a.name, sha256: a.sha256!, size: a.size, contentType: a.contentType, arch: a.arch, os: a.os, attestation }));
    const signature = await this.integrity.signRelease({ slug, version, manifest_sha256: manifestSha256, assets: signedAssets });
    return { jws: signature.jws, kid: signature.kid, assets: signedAssets };
  }

  private async record(
    request: IngestRequest,
    release: {
      version: string;
      key: string;
      manifest: Manifest;
      extensions: Record<string, unknown> | null;
      sha256: string;
      stored: StoredAsset[];
      readmeHtml: Record<string, string>;
      integrity: StoredIntegrity;
    },
  ): Promise<IngestResult> {
    return this.dataSource.transaction(async (manager) => {
      let plugin: PluginEntity;
      const claimed = 'claim' in request.target;
      if ('claim' in request.target) {
        const { repoUrl, repoIdentity, ownerId } = request.target.claim;
        plugin = await this.plugins.insertClaimed({ slug: request.slug, name: release.manifest.name, repoUrl, repoIdentity }, ownerId, manager);
        await this.audit.record({ action: 'plugin.claim', actor: request.actor, slug: request.slug, details: { repoUrl, version: release.version } }, manager);
      } else {
        plugin = request.target.plugin;
      }
      await this.releases.insert(
        {
          pluginId: plugin.id,
          version: release.version,
          versionKey: release.key,
          prerelease: isPrerelease(release.version),
          minRuntimeVersion: release.manifest.min_runtime_version ?? null,
          assets: release.stored,
          integrity: release.integrity,
          manifest: release.manifest as unknown as Record<string, unknown>,
          manifestRaw: request.manifestText,
          manifestSha256: release.sha256,
          readmeHtml: release.readmeHtml,
          source: request.source,
        },
        manager,
      );
      const latest = await this.latestVersion(plugin.id, manager);
      await this.plugins.updateCatalogue(
        plugin.id,
        { ...catalogueFields(release.manifest, release.extensions), latestVersion: latest, latestReleaseAt: new Date() },
        manager,
      );
      await this.audit.record(
        {
          action: 'plugin.publish',
          actor: request.actor,
          slug: request.slug,
          details: { version: release.version, source: request.source, assets: release.stored.length, kid: release.integrity.kid },
        },
        manager,
      );
      return { slug: plugin.slug, version: release.version, claimed };
    });
  }

  /** The SemVer-highest unyanked stable release, else the highest unyanked prerelease. */
  async latestVersion(pluginId: string, manager: EntityManager): Promise<string | null> {
    const live = (await this.releases.listForPlugin(pluginId, manager)).filter((r) => !r.yankedAt).sort(bySemverDescending);
    return (live.find((r) => !r.prerelease) ?? live[0])?.version ?? null;
  }
}
