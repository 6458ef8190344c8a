import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../common/errors/domain-error';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { canonicalJson } from '../lib/integrity';
import type { ReleaseDto } from './dto/release.dto';
import type { PluginEntity } from './entities/plugin.entity';
import type { ReleaseEntity } from './entities/release.entity';
import { PluginsRepository } from './plugins.repository';
import { toReleaseDto } from './release.mapper';
import { ReleasesRepository } from './releases.repository';
import { bySemverDescending, versionKey } from './versions';

@Injectable()
export class ReleasesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
  ) {}

  private async plugin(slug: string): Promise<PluginEntity> {
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return plugin;
  }

  private async release(slug: string, version: string): Promise<{ plugin: PluginEntity; release: ReleaseEntity }> {
    const plugin = await this.plugin(slug);
    const release = await this.releases.findByVersionKey(plugin.id, versionKey(version));
    if (!release) throw notFound(`no release ${version} of "${slug}"`);
    return { plugin, release };
  }

  async byVersion(slug: string, version: string): Promise<ReleaseDto> {
    const { plugin, release } = await this.release(slug, version);
    return toReleaseDto(release, plugin.slug, this.config.baseUrl);
  }

  /** The SemVer-highest release that is neither yanked nor a prerelease. */
  async latest(slug: string): Promise<ReleaseDto> {
    const plugin = await this.plugin(slug);
    const candidates = (await this.releases.listForPlugin(plugin.id)).filter((r) => !r.yankedAt && !r.prerelease).sort(bySemverDescending);
    if (!candidates.length) throw notFound(`"${slug}" has no stable, unyanked release`);
    return toReleaseDto(candidates[0], plugin.slug, this.config.baseUrl);
  }

  /** The manifest as the RFC 8785 bytes whose SHA-256 is the signed `manifest_sha256`. */
  async manifest(slug: string, version: string): Promise<string> {
    const { release } = await this.release(slug, version);
    return canonicalJson(release.manifest);
  }

  /** Counts the download and answers where the asset lives. */
  async download(slug: string, version: string, name: string): Promise<string> {
    const { plugin, release } = await this.release(slug, version);
    const asset = release.assets.find((a) => a.name === name);
    if (!asset) throw notFound(`release ${release.version} of "${slug}" has no asset "${name}"`);
    await this.plugins.countDownload(plugin.id);
    return asset.url;
  }
}
