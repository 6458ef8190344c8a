import { Injectable } from '@nestjs/common';
import type { AuditActor } from '../../platform/audit/audit.service';
import { conflict, DomainError, invalid, notFound, upstreamFailed } from '../../common/errors/domain-error';
import { AssetFetchError } from '../../common/fetch';
import { ImagesRepository } from '../../catalogue/images/images.repository';
import { ReadmeIngest, readmeTagCandidates } from '../ingest/readme-ingest';
import { ReleaseImages } from '../ingest/release-images';
import { KindsService } from '../../catalogue/kinds/kinds.service';
import { forgeForUrl, type ForgeLocation } from '../../platform/forges/urls';
import { checkManifest, MANIFEST_FILE_NAMES } from '../../lib/manifest';
import { AdminPluginsService } from '../../catalogue/plugins/admin-plugins.service';
import { manifestCatalogueFields } from '../../catalogue/plugins/catalogue-fields';
import type { AdminPluginDto } from '../../catalogue/plugins/dto/admin-plugin.dto';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../../catalogue/plugins/releases.repository';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { ForgeReleases } from './forge-releases';
import { ManifestResolver } from './manifest-resolver';

interface FoundManifest {
  text: string;
  fileName: string;
  tag: string;
  from: 'asset' | 'repository';
}

/**
 * The admin's "Refresh manifest": reads the manifest of the release the catalogue shows again
 * from its forge (the release's manifest asset, else the manifest file in the repository at the
 * tag), validates it as an ingest would, renders its README(s) at the tag again, fetches its icon
 * and screenshots again, and writes them all
 * onto that release, so the listing, the detail's `metadata` and its README follow. The slug and
 * the signed releases stay as they are: a manifest fixed after the fact changes what the
 * catalogue shows, never what was signed.
 */
@Injectable()
export class ManifestRefreshService {
  constructor(
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly readmes: ReadmeIngest,
    private readonly pictures: ReleaseImages,
    private readonly images: ImagesRepository,
    private readonly forges: ForgeRegistry,
    private readonly forgeReleases: ForgeReleases,
    private readonly manifests: ManifestResolver,
    private readonly kinds: KindsService,
    private readonly admin: AdminPluginsService,
  ) {}

  async refresh(slug: string, actor: AuditActor): Promise<AdminPluginDto> {
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    // The release the catalogue shows, by the rule the listing follows.
    const shown = await this.releases.findShown(plugin.id);
    if (!shown || shown.yankedAt) throw conflict('no-release', `"${slug}" has no live release to read a manifest for`);
    const { version } = shown;
    const location = forgeForUrl(plugin.repoUrl, this.forges.all());
    if (!location)
      throw conflict('repository-not-on-forge', `the repository of "${slug}" (${plugin.repoUrl}) is not on a configured forge instance`);

    const found = await this.read(location, version);
    const checked = checkManifest(found.text, found.fileName, { ...(await this.kinds.validationContext()), tag: found.tag });
    if (!checked.ok)
      throw invalid('manifest-invalid', `the manifest at ${found.tag} has ${checked.violations.length} violation(s)`, checked.violations);
    const kind = checked.manifest.kind;
    // A refresh must not move a release into a kind it could not have been published as.
    if (kind !== undefined && shown.provenanceStatus !== 'verified' && (await this.kinds.requiresProvenance(kind))) {
      const message = `kind: releases of kind "${kind}" need verified provenance; release ${version} was recorded as ${shown.provenanceStatus}`;
      throw new DomainError(
        'invalid',
        'provenance-required',
        `the manifest at ${found.tag} moves "${slug}" into kind "${kind}", which requires verified provenance; nothing was changed`,
        [{ path: '/kind', message }],
        { check: 'required' },
      );
    }
    // README and picture problems do not fail the refresh, as they do not fail a publish: they are audited.
    // The encodings count against the picture bounds (for this plugin) until they are stored.
    const hold = this.pictures.hold(`plugin:${plugin.id}`);
    const [readme, pictures] = await Promise.all([
      this.readmes.render(checked.manifest, plugin.repoUrl, found.tag),
      this.pictures.fetch(checked.manifest, hold),
    ])
      .then(async (both) => {
        // Content-addressed: confirmed before the transaction, an encoding it then does not use is harmless.
        await this.images.confirm(both[1].encodings);
        return both;
      })
      .finally(() => hold.release());
    const warnings = [...pictures.warnings, ...readme.warnings];
    return this.admin.applyRefreshedManifest(
      slug,
      {
        releaseId: shown.id,
        version,
        manifest: manifestCatalogueFields(checked.manifest, checked.extensions).metadata,
        extensions: checked.extensions,
        readme: { locales: readme.locales, rendered: readme.readmes },
        images: pictures.images,
        details: { version, tag: found.tag, file: found.fileName, from: found.from, ...(warnings.length ? { warnings } : {}) },
      },
      actor,
    );
  }

  private async read(location: ForgeLocation, version: string): Promise<FoundManifest> {
    const candidates = await this.manifests.candidates();
    try {
      // The forge's release names the tag (with or without its v); without one, each spelling is tried.
      const tags = readmeTagCandidates(version);
      for (const tag of tags) {
        const release = await this.forgeReleases.releaseByTag(location, tag);
        if (!release) continue;
        const fromAsset = await this.manifests.fromAssets(release.assets, candidates);
        if (fromAsset) return { ...fromAsset, tag, from: 'asset' };
        return (await this.repositoryFile(location, [tag])) ?? this.notFound(candidates, [tag]);
      }
      return (await this.repositoryFile(location, tags)) ?? this.notFound(candidates, tags);
    } catch (error) {
      if (error instanceof AssetFetchError) throw upstreamFailed('forge-fetch-failed', error.message);
      throw error;
    }
  }

  private async repositoryFile(location: ForgeLocation, tags: readonly string[]): Promise<FoundManifest | null> {
    for (const tag of tags) {
      const found = await this.manifests.fromRepository(location, tag);
      if (found) return { ...found, tag, from: 'repository' };
    }
    return null;
  }

  private notFound(candidates: readonly string[], tags: readonly string[]): never {
    throw new DomainError(
      'invalid',
      'manifest-not-found',
      `no manifest asset (${candidates.join(', ')}) on the release and no manifest file (${MANIFEST_FILE_NAMES.join(', ')}) in the repository at ${tags.join(' or ')}`,
    );
  }
}
