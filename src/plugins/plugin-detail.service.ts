import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../auth/auth-context';
import { notFound } from '../common/errors/domain-error';
import { CatalogueReads } from '../database/catalogue-reads';
import { DEFAULT_README_LOCALE } from '../lib/locale/locale';
import type { PluginDetailDto } from './dto/plugin-detail.dto';
import type { ReleaseEntity } from './entities/release.entity';
import { type ReadmeView, toPluginDetailDto } from './plugin-detail.mapper';
import { PluginsRepository } from './plugins.repository';
import { ReleaseReadmesRepository } from './release-readmes.repository';
import { ReleasesRepository } from './releases.repository';

/**
 * `GET /api/plugins/:slug`: the full plugin. Its manifest fields and README are those of the
 * release the catalogue shows (ReleasesRepository.findShown: the latest; a newer prerelease or a
 * backport does not change it), the README in the language asked for.
 */
@Injectable()
export class PluginDetailService {
  constructor(
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly readmes: ReleaseReadmesRepository,
    private readonly reads: CatalogueReads,
  ) {}

  /** A signed-in caller (an owner or admin after a change) reads the primary; anyone else may read a replica. */
  detail(slug: string, locale: string | undefined, caller: AuthContext | null): Promise<PluginDetailDto> {
    return caller ? this.read(slug, locale, caller, undefined) : this.reads.run((manager) => this.read(slug, locale, caller, manager));
  }

  private async read(slug: string, locale: string | undefined, caller: AuthContext | null, manager: EntityManager | undefined): Promise<PluginDetailDto> {
    const plugin = await this.plugins.findBySlug(slug, manager);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    const [releases, ownerRows, shownRelease] = await Promise.all([
      this.releases.listForPlugin(plugin.id, manager),
      this.plugins.owners(plugin.id, manager),
      this.releases.findShown(plugin.id, manager),
    ]);
    // The one rule the listing's fields follow too (CatalogueListing), so page and list agree.
    const shown = releases.find((r) => r.id === shownRelease?.id);
    const owners = ownerRows.map(({ login, instance }) => ({ login, instance }));
    return toPluginDetailDto(plugin, {
      owners,
      releases,
      shown,
      readme: shown ? await this.readme(shown, locale, manager) : { html: null, locale: null, available: [] },
      admin: caller?.user.role === 'admin',
    });
  }

  /** A single README has no language (`readmeLocale` null, no alternatives); `readmes` have theirs. */
  private async readme(release: ReleaseEntity, locale: string | undefined, manager: EntityManager | undefined): Promise<ReadmeView> {
    const stored = await this.readmes.locales(release.id, manager);
    const available = stored.filter((l) => l !== DEFAULT_README_LOCALE);
    const found = await this.readmes.findForLocale(release.id, locale, stored, manager);
    if (!found) return { html: null, locale: null, available };
    return { html: found.html, locale: found.locale === DEFAULT_README_LOCALE ? null : found.locale, available };
  }
}
