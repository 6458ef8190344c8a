import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { notFound } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import type { LatestReleaseDto, ReleaseDto } from './dto/release.dto';
import { FRESHNESS_HEADER } from '../../trust/freshness/freshness-header';
import { FreshnessService } from '../../trust/freshness/freshness.service';
import type { PluginEntity } from './entities/plugin.entity';
import type { ReleaseEntity } from './entities/release.entity';
import { PluginsRepository } from './plugins.repository';
import { toReleaseDto } from './release.mapper';
import { DownloadCounter } from './download-counter';
import { deprecationHeaders } from './latest.service';
import { ReleasesRepository } from './releases.repository';
import { versionKey } from './versions';

/** The latest release, and its headers: the freshness statement's, and those a deprecated plugin's answer adds. */
export interface ReleaseAnswer {
  body: LatestReleaseDto;
  headers: Record<string, string>;
}

@Injectable()
export class ReleasesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly downloads: DownloadCounter,
    private readonly reads: CatalogueReads,
    private readonly freshness: FreshnessService,
  ) {}

  private async plugin(slug: string, manager?: EntityManager): Promise<PluginEntity> {
    const plugin = await this.plugins.findBySlug(slug, manager);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return plugin;
  }

  private async release(slug: string, version: string, manager?: EntityManager): Promise<{ plugin: PluginEntity; release: ReleaseEntity }> {
    const plugin = await this.plugin(slug, manager);
    const release = await this.releases.findByVersionKey(plugin.id, versionKey(version), manager);
    if (!release) throw notFound(`no release ${version} of "${slug}"`);
    return { plugin, release };
  }

  async byVersion(slug: string, version: string): Promise<ReleaseDto> {
    const { plugin, release } = await this.reads.run((manager) => this.release(slug, version, manager));
    return toReleaseDto(release, plugin.slug, this.config.baseUrl);
  }

  /** The one "latest" rule: SemVer-highest, not yanked, prereleases only when asked. */
  async latest(slug: string, prerelease: boolean): Promise<ReleaseAnswer> {
    // On the primary, as `/latest`: an answer from a lagging replica would carry an older log
    // position than one a client already saw, which it must refuse as a rollback.
    const latest = await this.releases.findLatestWithPlugin(slug, { prerelease });
    if (!latest) {
      await this.plugin(slug);
      throw notFound(`"${slug}" has no ${prerelease ? '' : 'stable, '}unyanked release`);
    }
    const plugin = latest.plugin!;
    // A deprecated plugin's answer carries the RFC 9745 headers `/latest` does.
    const deprecation = plugin.deprecatedAt ? { since: plugin.deprecatedAt.getTime(), replacement: plugin.deprecatedReplacement } : null;
    // The statement vouches for the release as a whole (platform "all"): it names no one asset.
    const freshness = await this.freshness.statementFor({
      slug: plugin.slug,
      version: latest.version,
      platform: 'all',
      assetSha256: null,
      treeSize: Number(plugin.logSize),
    });
    const headers = deprecationHeaders(this.config.baseUrl, plugin.slug, deprecation);
    return {
      body: { ...toReleaseDto(latest, plugin.slug, this.config.baseUrl), freshness },
      headers: freshness ? { ...headers, [FRESHNESS_HEADER]: freshness } : headers,
    };
  }

  // The manifest and the download read the primary: a client fetches them right after a publish.

  /** The exact RFC 8785 bytes that were hashed into the signed `manifest_sha256`. */
  async manifest(slug: string, version: string): Promise<string> {
    const { release } = await this.release(slug, version);
    return release.manifestCanonical;
  }

  /** Where the asset lives; a GET counts one download, a HEAD (a client resolving the link) does not. */
  async download(slug: string, version: string, name: string, count: boolean): Promise<string> {
    const { release } = await this.release(slug, version);
    const asset = release.assets.find((a) => a.name === name);
    if (!asset) throw notFound(`release ${release.version} of "${slug}" has no asset "${name}"`);
    if (count) this.downloads.count(release.id);
    return asset.url;
  }
}
