import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Manifest } from '../../lib/manifest';
import { manifestCatalogueFields } from './catalogue-fields';
import { type PluginCatalogueFields, PluginsRepository } from './plugins.repository';
import { readmeSearchText } from './readme-search-text';
import { listIconSha256 } from './served-images';
import { ReleaseReadmesRepository } from './release-readmes.repository';
import { ReleasesRepository } from './releases.repository';

/**
 * Keeps a plugin's catalogue fields (name, description, category, kind, tags, license, icon
 * metadata, extension values, README search text, latest pointers) on the release the catalogue
 * shows (ReleasesRepository.findShown), whichever release was written last. Every change to a
 * plugin's releases (ingest, yank, unyank, delete, manifest refresh) calls it inside its own
 * transaction, so the catalogue never shows a state that was not committed whole.
 */
@Injectable()
export class CatalogueListing {
  constructor(
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly readmes: ReleaseReadmesRepository,
  ) {}

  /** Recomputes the fields from the releases as they now stand; `also` is written with them. */
  async recompute(pluginId: string, manager: EntityManager, also: Partial<PluginCatalogueFields> = {}): Promise<void> {
    await this.plugins.lockForCatalogue(pluginId, manager);
    const latest = await this.releases.latestVersions(pluginId, manager);
    const shown = await this.releases.findShown(pluginId, manager);
    // With no release left the manifest fields stay as they were: the plugin still exists.
    const fromShown = shown
      ? {
          ...manifestCatalogueFields(shown.manifest as unknown as Manifest, shown.extensions),
          iconImage: listIconSha256(shown.images),
          searchReadme: readmeSearchText(await this.readmes.htmlByLocale(shown.id, manager)),
        }
      : {};
    await this.plugins.updateCatalogue(
      pluginId,
      { ...fromShown, latestVersion: latest.stable, latestPrerelease: latest.prerelease, ...also },
      manager,
    );
  }
}
