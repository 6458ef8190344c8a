import type { components } from '../../client/registry-client';
import { h, type MarkupElement } from './markup-tree';

export type CatalogueItem = components['schemas']['CatalogueItemDto'];

/** The words a card needs, from the server's bundle or from the strings the page carries. */
export interface CardWords {
  text(key: 'badge.verified' | 'badge.featured' | 'badge.deprecated'): string;
  downloads(count: number): string;
  /** A kind's label ("Themes") by its key; undefined shows the key. */
  kindLabel(key: string): string | undefined;
}

/**
 * One plugin in a list: icon (decorative, served by this registry), name, version, badges,
 * description, kind and downloads. The server renders it (plugin-card.ts) and the browse page's
 * script redraws results with it (browser/catalogue.ts).
 */
export function pluginCardMarkup(plugin: CatalogueItem, words: CardWords): MarkupElement {
  const version = plugin.latestVersion ?? plugin.latestPrerelease;
  // `images` may be missing from an answer cached by an older build (a rolling deploy).
  const icon = plugin.images?.icon;
  return h(
    'li',
    { class: 'plugin-card' },
    icon ? h('img', { class: 'card-icon', src: icon.url, width: '48', height: '48', alt: '', loading: 'lazy', decoding: 'async' }) : null,
    h(
      'h3',
      {},
      h('a', { href: `/plugins/${encodeURIComponent(plugin.slug)}` }, plugin.name),
      version ? ' ' : null,
      version ? h('span', { class: 'version' }, version) : null,
    ),
    h(
      'p',
      { class: 'badges' },
      plugin.verified ? h('span', { class: 'badge verified' }, words.text('badge.verified')) : null,
      plugin.featured ? h('span', { class: 'badge featured' }, words.text('badge.featured')) : null,
      plugin.deprecated ? h('span', { class: 'badge deprecated' }, words.text('badge.deprecated')) : null,
    ),
    plugin.description ? h('p', { class: 'description' }, plugin.description) : null,
    h(
      'p',
      { class: 'meta' },
      plugin.kind ? h('a', { href: `/kinds/${encodeURIComponent(plugin.kind)}` }, words.kindLabel(plugin.kind) ?? plugin.kind) : null,
      plugin.kind ? ' · ' : null,
      words.downloads(plugin.downloads),
    ),
  );
}
