import { html, type SafeHtml } from '../html';
import type { Translate } from '../i18n/messages';

/** An Atom feed a page offers: `<link rel="alternate">` in its head, and a visible link. */
export interface FeedLink {
  href: string;
  title: string;
}

/** The routes of src/news/feeds (documented in docs/web.md#feeds). */
export const catalogueFeed = (t: Translate): FeedLink => ({ href: '/feeds/releases.atom', title: t('feed.catalogue') });
export const kindFeed = (t: Translate, key: string, label: string): FeedLink => ({
  href: `/feeds/kinds/${encodeURIComponent(key)}.atom`,
  title: t('feed.kind', { label }),
});
export const pluginFeed = (t: Translate, slug: string, name: string): FeedLink => ({
  href: `/feeds/plugins/${slug}.atom`,
  title: t('feed.plugin', { name }),
});
export const ownerFeed = (t: Translate, owner: { instance: string; login: string }): FeedLink => ({
  href: `/feeds/owners/${encodeURIComponent(owner.instance)}/${encodeURIComponent(owner.login)}.atom`,
  title: t('feed.owner', { login: owner.login }),
});

/** The head's links to a page's feeds. */
export function alternateLinks(feeds: readonly FeedLink[]): SafeHtml {
  return html`${feeds.map((feed) => html`<link rel="alternate" type="application/atom+xml" title="${feed.title}" href="${feed.href}">\n`)}`;
}

/** A visible link to a feed, its title as its text (what it follows, and that it is an Atom feed). */
export function feedAnchor(feed: FeedLink): SafeHtml {
  return html`<a class="feed-link" href="${feed.href}" type="application/atom+xml">${feed.title}</a>`;
}
