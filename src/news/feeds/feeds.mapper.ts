import type { AtomEntry, AtomFeed } from '../../lib/atom/atom';
import type { FeedReleaseRow } from './feeds.repository';

/** What one feed is about: its path under the base URL, its title, and the HTML page it mirrors. */
export interface FeedDescription {
  /** `/feeds/releases.atom`, say: the feed's own URL (and id) is the base URL and this. */
  path: string;
  title: string;
  subtitle?: string | null;
  /** The page that shows the same releases, when there is one. */
  alternatePath?: string;
}

export interface FeedSite {
  /** BASE_URL without a trailing slash. */
  baseUrl: string;
  siteName: string;
  /** Kind key → label, for the entries' categories. */
  kindLabels: ReadonlyMap<string, string>;
}

/** A feed with no entries says this, so its body (and ETag) stays put until the first release. */
const NO_ENTRIES_UPDATED = new Date(0);

/** The year in every entry id: ids must never change, so neither does it. */
const TAG_YEAR = 2026;

/**
 * A release's entry id, stable for as long as the registry keeps its host name: an RFC 4151 tag
 * (`tag:registry.example,2026:release/<slug>/<version>`), not a URL, so a feed reader never
 * takes it for an address. The plugin's name may change; the id does not.
 */
export function releaseEntryId(baseUrl: string, slug: string, version: string): string {
  return `tag:${new URL(baseUrl).hostname},${TAG_YEAR}:release/${slug}/${encodeURIComponent(version).replace(/%2B/g, '+')}`;
}

function entry(site: FeedSite, row: FeedReleaseRow): AtomEntry {
  const page = `${site.baseUrl}/plugins/${row.slug}`;
  return {
    id: releaseEntryId(site.baseUrl, row.slug, row.version),
    title: `${row.name} ${row.version}`,
    updated: row.updatedAt,
    published: row.createdAt,
    links: [{ rel: 'alternate', type: 'text/html', href: page }],
    authors: row.owners.map((login) => ({ name: login })),
    summary: row.description,
    categories: [
      ...(row.kind ? [{ term: row.kind, label: site.kindLabels.get(row.kind) ?? row.kind }] : []),
      ...(row.prerelease ? [{ term: 'prerelease', label: 'Prerelease' }] : []),
    ],
  };
}

/**
 * The feed's `updated`: the latest change it shows, an entry's (`updatedAt`, not only the newest
 * entry's: a renamed plugin's older release changes too) or an entry taken out by a yank, so it
 * never goes back in time while the feed's releases are yanked and unyanked.
 */
function feedUpdated(rows: readonly FeedReleaseRow[], newestYank: Date | null): Date {
  const times = [...rows.map((row) => row.updatedAt.getTime()), ...(newestYank ? [newestYank.getTime()] : [])];
  return times.length ? new Date(Math.max(...times)) : NO_ENTRIES_UPDATED;
}

/** The Atom feed of some releases (newest first, as the repository read them); `newestYank`: when one of the feed's releases was last yanked. */
export function toAtomFeed(
  site: FeedSite,
  feed: FeedDescription,
  rows: readonly FeedReleaseRow[],
  newestYank: Date | null = null,
): AtomFeed {
  const self = `${site.baseUrl}${feed.path}`;
  return {
    id: self,
    title: feed.title,
    subtitle: feed.subtitle ?? undefined,
    updated: feedUpdated(rows, newestYank),
    links: [
      { rel: 'self', type: 'application/atom+xml', href: self },
      ...(feed.alternatePath ? [{ rel: 'alternate' as const, type: 'text/html', href: `${site.baseUrl}${feed.alternatePath}` }] : []),
    ],
    authors: [{ name: site.siteName, uri: `${site.baseUrl}/` }],
    entries: rows.map((row) => entry(site, row)),
  };
}
