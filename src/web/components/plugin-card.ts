import type { components } from '../../client/registry-client';
import { html, type SafeHtml } from '../html';
import type { Translate } from '../i18n/messages';

export type CatalogueItem = components['schemas']['CatalogueItemDto'];

/** Kind labels by key, so a card names a kind as people read it ("Themes"), not by its key. */
export type KindLabels = ReadonlyMap<string, string>;

export function kindLabels(kinds: readonly { key: string; label: string }[] | undefined): KindLabels {
  return new Map((kinds ?? []).map((k) => [k.key, k.label]));
}

/** One plugin in a list: icon (decorative, served by this registry), name, version, badges, description, kind and downloads. */
export function pluginCard(plugin: CatalogueItem, t: Translate, kinds: KindLabels = new Map()): SafeHtml {
  const version = plugin.latestVersion ?? plugin.latestPrerelease;
  // `images` may be missing from an answer cached by an older build (a rolling deploy).
  const icon = plugin.images?.icon;
  return html`<li class="plugin-card">
  ${icon ? html`<img class="card-icon" src="${icon.url}" width="48" height="48" alt="" loading="lazy" decoding="async">` : null}
  <h3><a href="/plugins/${plugin.slug}">${plugin.name}</a>${version ? html` <span class="version">${version}</span>` : null}</h3>
  <p class="badges">${plugin.verified ? html`<span class="badge verified">${t('badge.verified')}</span>` : null}${plugin.featured ? html`<span class="badge featured">${t('badge.featured')}</span>` : null}${plugin.deprecated ? html`<span class="badge deprecated">${t('badge.deprecated')}</span>` : null}</p>
  ${plugin.description ? html`<p class="description">${plugin.description}</p>` : null}
  <p class="meta">${plugin.kind ? html`<a href="/kinds/${plugin.kind}">${kinds.get(plugin.kind) ?? plugin.kind}</a> · ` : null}${t.count('plugin.downloads', plugin.downloads)}</p>
</li>`;
}

export function pluginList(plugins: readonly CatalogueItem[], t: Translate, kinds?: KindLabels): SafeHtml {
  return html`<ul class="plugin-list">${plugins.map((p) => pluginCard(p, t, kinds))}</ul>`;
}
