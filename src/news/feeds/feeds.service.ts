import { Inject, Injectable } from '@nestjs/common';
import { BrandingService } from '../../platform/site/branding.service';
import { notFound } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { KindsService } from '../../catalogue/kinds/kinds.service';
import { renderAtomFeed } from '../../lib/atom/atom';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import { type FeedDescription, type FeedSite, toAtomFeed } from './feeds.mapper';
import { type FeedFilter, FeedsRepository } from './feeds.repository';

/** Instance names and logins longer than the columns that hold them name nobody. */
const INSTANCE_MAX = 40;
const LOGIN_MAX = 100;

/**
 * Atom feeds of new releases: the whole catalogue, one kind, one plugin, one owner. Only what the
 * public catalogue shows: live releases (yanked ones left out) of existing plugins, enabled kinds,
 * owners by the login plugin pages show. Read like the other anonymous catalogue reads (a replica
 * when there is one).
 */
@Injectable()
export class FeedsService {
  private readonly baseUrl: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly feeds: FeedsRepository,
    private readonly kinds: KindsService,
    private readonly branding: BrandingService,
    private readonly reads: CatalogueReads,
  ) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
  }

  catalogue(): Promise<string> {
    return this.render({ by: 'all' }, async (site) => ({
      path: '/feeds/releases.atom',
      title: `New releases · ${site.siteName}`,
      alternatePath: '/plugins',
    }));
  }

  kind(key: string): Promise<string> {
    return this.render({ by: 'kind', kind: key }, async (site) => {
      const label = site.kindLabels.get(key);
      if (label === undefined) throw notFound(`no kind "${key}"`);
      return {
        path: `/feeds/kinds/${encodeURIComponent(key)}.atom`,
        title: `New releases: ${label} · ${site.siteName}`,
        alternatePath: `/kinds/${encodeURIComponent(key)}`,
      };
    });
  }

  async plugin(slug: string): Promise<string> {
    const plugin = await this.reads.run((manager) => this.feeds.pluginBySlug(slug, manager));
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return this.render({ by: 'plugin', pluginId: plugin.id }, async (site) => ({
      path: `/feeds/plugins/${plugin.slug}.atom`,
      title: `${plugin.name} releases · ${site.siteName}`,
      subtitle: plugin.description,
      alternatePath: `/plugins/${plugin.slug}`,
    }));
  }

  async owner(instance: string, login: string): Promise<string> {
    const userIds =
      instance.length <= INSTANCE_MAX && login.length <= LOGIN_MAX
        ? await this.reads.run((manager) => this.feeds.ownersNamed(instance, login, manager))
        : [];
    if (!userIds.length) throw notFound(`no publisher "${login}" on "${instance}"`);
    return this.render({ by: 'owners', userIds }, async (site) => ({
      path: `/feeds/owners/${encodeURIComponent(instance)}/${encodeURIComponent(login)}.atom`,
      title: `New releases by ${login} · ${site.siteName}`,
    }));
  }

  /** The feed's site facts, its description (which may refuse: an unknown kind), then its entries. */
  private async render(filter: FeedFilter, describe: (site: FeedSite) => Promise<FeedDescription>): Promise<string> {
    const [kinds, branding] = await Promise.all([this.kinds.publicList(), this.branding.get()]);
    const site: FeedSite = {
      baseUrl: this.baseUrl,
      siteName: branding.siteName,
      kindLabels: new Map(kinds.kinds.map((k) => [k.key, k.label])),
    };
    const feed = await describe(site);
    const { rows, newestYank } = await this.reads.run(async (manager) => ({
      rows: await this.feeds.newestReleases(filter, manager),
      newestYank: await this.feeds.newestYank(filter, manager),
    }));
    return renderAtomFeed(toAtomFeed(site, feed, rows, newestYank));
  }
}
