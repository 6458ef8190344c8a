import { Inject, Injectable } from '@nestjs/common';
import { DomainError, notFound } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import { FRESHNESS_HEADER } from '../../trust/freshness/freshness-header';
import { FreshnessService, type LatestChoice } from '../../trust/freshness/freshness.service';
import type { AppConfig } from '../../config/config.types';
import { normalizeArch, normalizeOs, platformFromUserAgent, platformKey, type TargetPlatform } from '../../lib/platform/platform';
import { chooseAsset, chooseLatestRelease, type CandidateRelease } from '../../lib/platform/resolve-latest';
import type { LatestDto, LatestQueryDto, PlatformAssetDto } from './dto/latest.dto';
import { PAGE_FORMAT } from './plugin-detail.service';
import { type LatestCandidateRow, type LatestCandidates, PluginPageRepository } from './plugin-page.repository';
import { assetDownloadUrl } from './release.mapper';

function candidate(release: LatestCandidateRow): CandidateRelease {
  return {
    ...release,
    assets: release.assets.map((a) => ({ name: a.name, os: a.os, arch: a.arch, size: a.size, sha256: a.hashed ? a.sha256 : null })),
  };
}

/** The query's os/arch when given (aliases understood), else what the User-Agent names. */
function targetOf(query: LatestQueryDto, userAgent: string | undefined): TargetPlatform {
  if (query.os || query.arch) {
    return { os: query.os ? normalizeOs(query.os) : null, arch: query.arch ? normalizeArch(query.arch) : null };
  }
  return platformFromUserAgent(userAgent);
}

/** A `latest` answer: its body, and the headers a deprecated plugin's answer adds. */
export interface LatestAnswer {
  body: LatestDto;
  headers: Record<string, string>;
}

/**
 * RFC 9745 for a deprecated plugin: `Deprecation` (a structured-field date, `@` and Unix seconds)
 * and `Link`s to the plugin's page, which says why (`rel="deprecation"`), and to the
 * replacement's page (`rel="successor-version"`). Nothing for a plugin that is not deprecated.
 */
export function deprecationHeaders(baseUrl: string, slug: string, deprecation: LatestCandidates['deprecation']): Record<string, string> {
  if (!deprecation) return {};
  const page = (of: string) => `${baseUrl.replace(/\/+$/, '')}/plugins/${of}`;
  const links = [`<${page(slug)}>; rel="deprecation"; type="text/html"`];
  if (deprecation.replacement) links.push(`<${page(deprecation.replacement)}>; rel="successor-version"`);
  return { Deprecation: `@${Math.floor(deprecation.since / 1000)}`, Link: links.join(', ') };
}

/**
 * `GET /api/plugins/:slug/latest`: the latest release's asset for a platform
 * (docs/decisions.md#catalogue-search-detail-and-the-latest-release).
 */
@Injectable()
export class LatestService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pages: PluginPageRepository,
    private readonly freshness: FreshnessService,
  ) {}

  /**
   * The answer with its headers (the controller and the catalogue lane send both): the signed
   * freshness statement in the body and in `Registry-Freshness`, so an answer read for its
   * headers alone carries it too, and a deprecated plugin's RFC 9745 headers.
   */
  async answer(slug: string, query: LatestQueryDto, userAgent: string | undefined): Promise<LatestAnswer> {
    // On the primary, not a replica: an answer from a lagging replica would carry an older log
    // position than one a client already saw, which it must refuse as a rollback.
    const plugin = await this.pages.latestCandidates(slug, PAGE_FORMAT);
    const { body, choice } = this.resolve(slug, plugin, query, userAgent);
    const freshness = await this.freshness.statementFor(choice);
    const headers = plugin ? deprecationHeaders(this.config.baseUrl, plugin.slug, plugin.deprecation) : {};
    return { body: { ...body, freshness }, headers: freshness ? { ...headers, [FRESHNESS_HEADER]: freshness } : headers };
  }

  private resolve(
    slug: string,
    plugin: LatestCandidates | null,
    query: LatestQueryDto,
    userAgent: string | undefined,
  ): { body: Omit<LatestDto, 'freshness'>; choice: LatestChoice } {
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    const { releases } = plugin;
    const candidates = releases.map(candidate);
    const { release, skipped } = chooseLatestRelease(candidates, { prerelease: query.prerelease === '1', runtime: query.runtime ?? null });
    if (!release) {
      const wanted = `not yanked${query.prerelease === '1' ? '' : ', not a prerelease'}${query.runtime ? `, accepting runtime ${query.runtime}` : ''}`;
      throw new DomainError('not-found', 'no-matching-release', `"${slug}" has no release that is ${wanted}`, undefined, { skipped });
    }
    const link = (name: string) => assetDownloadUrl(this.config.baseUrl, plugin.slug, release.version, name);
    const platforms: Record<string, PlatformAssetDto> = {};
    for (const asset of release.assets) {
      platforms[platformKey(asset.os, asset.arch)] ??= {
        name: asset.name,
        download_url: link(asset.name),
        size: asset.size,
        sha256: asset.sha256,
      };
    }
    const chosen = chooseAsset(release.assets, targetOf(query, userAgent));
    if (!chosen) {
      throw new DomainError(
        'invalid',
        'no-platform-asset',
        `release ${release.version} of "${slug}" has no asset for this platform and no universal one`,
        undefined,
        {
          version: release.version,
          platforms,
          skipped,
        },
      );
    }
    const { asset } = chosen;
    return {
      body: { slug: plugin.slug, version: release.version, download_url: link(asset.name), platform: chosen.platform, platforms, skipped },
      choice: {
        slug: plugin.slug,
        version: release.version,
        platform: chosen.platform === null ? 'universal' : { os: asset.os, arch: asset.arch },
        assetSha256: asset.sha256,
        treeSize: plugin.logSize,
      },
    };
  }
}
