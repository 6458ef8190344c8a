import { html, markupHtml, type SafeHtml } from '../html';
import type { Translate } from '../i18n/messages';
import { pluginCardMarkup, type CatalogueItem } from './plugin-card-markup';

export type { CatalogueItem } from './plugin-card-markup';

/** Kind labels by key, so a card names a kind as people read it ("Themes"), not by its key. */
export type KindLabels = ReadonlyMap<string, string>;

export function kindLabels(kinds: readonly { key: string; label: string }[] | undefined): KindLabels {
  return new Map((kinds ?? []).map((k) => [k.key, k.label]));
}

/** One plugin in a list, as the browse page's script draws it too (plugin-card-markup.ts). */
export function pluginCard(plugin: CatalogueItem, t: Translate, kinds: KindLabels = new Map()): SafeHtml {
  return markupHtml(
    pluginCardMarkup(plugin, {
      text: (key) => t(key),
      downloads: (count) => t.count('plugin.downloads', count),
      kindLabel: (key) => kinds.get(key),
    }),
  );
}

export function pluginList(plugins: readonly CatalogueItem[], t: Translate, kinds?: KindLabels): SafeHtml {
  return html`<ul class="plugin-list">${plugins.map((p) => pluginCard(p, t, kinds))}</ul>`;
}
