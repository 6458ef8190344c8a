import type { components } from '../../../client/registry-client';
import { focusableScrollers, scrollRegion } from '../../components/scroll-region';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import { formatBytes, formatDate, safeUrl } from './catalogue-parts';

export type PluginDetail = components['schemas']['PluginDetailDto'];
export type Latest = components['schemas']['LatestDto'];
export type Release = components['schemas']['ReleaseDto'];
export type ProviderStats = components['schemas']['ProviderStatsDto'];
export type KindList = components['schemas']['KindListDto'];

/** The signing key's id, read from the release signature's protected header. */
export function signingKid(jws: string): string | null {
  try {
    const header = JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : null;
  } catch {
    return null;
  }
}

/** The visitor's download (their platform's asset, else the universal one) and every platform's. */
export function downloadSection(latest: Latest | null, t: Translate): SafeHtml {
  if (!latest || Object.keys(latest.platforms).length === 0)
    return html`<section aria-labelledby="download-heading"><h2 id="download-heading">${t('plugin.download')}</h2><p>${t('plugin.noRelease')}</p></section>`;
  const chosen = latest.download_url
    ? html`<p><a class="button download" href="${latest.download_url}" download>${latest.platform ? t('plugin.downloadFor', { platform: latest.platform }) : t('plugin.downloadUniversal', { version: latest.version })}</a></p>`
    : html`<p>${t('plugin.noBuild')}</p>`;
  const rows = Object.entries(latest.platforms).sort(([a], [b]) => a.localeCompare(b));
  return html`<section aria-labelledby="download-heading">
  <h2 id="download-heading">${t('plugin.download')} <span class="version">${latest.version}</span></h2>
  ${chosen}
  <h3>${t('plugin.platforms')}</h3>
  ${scrollRegion(
    t('plugin.platforms'),
    html`<table class="platforms">
    <thead><tr><th scope="col">${t('plugin.platform')}</th><th scope="col">${t('plugin.file')}</th><th scope="col">${t('plugin.size')}</th></tr></thead>
    <tbody>${rows.map(([key, asset]) => html`<tr${key === latest.platform ? html` class="current"` : null}><th scope="row">${key}</th><td><a href="${asset.download_url}" download>${asset.name}</a></td><td>${formatBytes(asset.size)}</td></tr>`)}</tbody>
  </table>`,
  )}
</section>`;
}

/** The registry's public base URL, as its own download links spell it; else the page's origin. */
export function registryBase(release: Release, fallback: string): string {
  const link = release.assets[0]?.url ?? '';
  const at = link.indexOf('/api/plugins/');
  return at > 0 ? link.slice(0, at) : fallback;
}

/** Where the release was built, when a Sigstore bundle proved it at ingest; a note when an attestation went unchecked. */
export function provenanceLine(release: Release, locale: string, t: Translate): SafeHtml | null {
  const provenance = release.provenance;
  if (provenance.status === 'unverified') return html`<p class="provenance">${t('plugin.provenanceUnverified')}</p>`;
  if (provenance.status !== 'verified' || !provenance.repository) return null;
  return html`<p class="provenance" id="built-by">${t('plugin.builtBy', { repository: provenance.repository, workflow: provenance.workflow ?? '', ref: provenance.ref ?? '' })}<br>
  <span class="meta">${t('plugin.provenanceVerified', { date: provenance.signedAt === null ? '—' : formatDate(provenance.signedAt, locale) })}</span></p>`;
}

/** Who signed the release, each file's SHA-256, and how to check a download oneself. */
export function integritySection(slug: string, release: Release | null, origin: string, locale: string, t: Translate): SafeHtml | null {
  if (!release) return null;
  const kid = release.integrity ? signingKid(release.integrity.jws) : null;
  const hashes = new Map((release.integrity?.assets ?? []).map((a) => [a.name, a.sha256]));
  const command = `registry verify ${slug}@${release.version} --registry ${registryBase(release, origin)}`;
  return html`<section aria-labelledby="integrity-heading">
  <h2 id="integrity-heading">${t('plugin.integrity')}</h2>
  <p>${release.integrity ? t('plugin.integrityText', { version: release.version }) : t('plugin.unsigned')}</p>
  ${kid ? html`<p class="kid">${t('plugin.kid')}: <code>${kid}</code></p>` : null}
  ${provenanceLine(release, locale, t)}
  ${scrollRegion(
    t('plugin.integrity'),
    html`<table class="hashes">
    <thead><tr><th scope="col">${t('plugin.file')}</th><th scope="col">SHA-256</th></tr></thead>
    <tbody>${release.assets.map((a) => html`<tr><th scope="row">${a.name}</th><td><code class="sha">${hashes.get(a.name) ?? t('plugin.notHashed')}</code></td></tr>`)}</tbody>
  </table>`,
  )}
  <p>${t('plugin.verifyHow')}</p>
  <div class="snippet"><pre><code id="verify-command">${command}</code></pre><button type="button" class="secondary" data-copy="#verify-command">${t('action.copy')}</button></div>
  <p><a href="/.well-known/registry-key.json">${t('plugin.keySet')}</a></p>
</section>`;
}

/**
 * Headings of sanitized HTML moved `by` levels down (h1 becomes h3 under the page's h1 and the
 * section's h2), so the page's outline stays in order; only tag names change.
 */
export function shiftHeadings(sanitized: string, by: number): string {
  return sanitized.replace(
    /<(\/?)h([1-6])(?=[\s>])/gi,
    (_tag, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + by)}`,
  );
}

/** The README in the chosen language, with links to the others it is written in. */
export function readmeSection(plugin: PluginDetail, t: Translate): SafeHtml {
  const switcher =
    plugin.readmeAvailableLocales.length > 1
      ? html`<nav class="readme-locales" aria-label="${t('plugin.readmeLanguage')}"><ul>${plugin.readmeAvailableLocales.map(
          (l) =>
            html`<li><a href="/plugins/${plugin.slug}?locale=${encodeURIComponent(l)}" hreflang="${l}" lang="${l}"${l === plugin.readmeLocale ? html` aria-current="true"` : null}>${l}</a></li>`,
        )}</ul></nav>`
      : null;
  // readmeHtml was rendered from markdown and sanitized by the API at ingest.
  const body = plugin.readmeHtml
    ? html`<div class="readme"${plugin.readmeLocale ? html` lang="${plugin.readmeLocale}"` : null}>${focusableScrollers(shiftHeadings(plugin.readmeHtml, 2), t)}</div>`
    : html`<p>${t('plugin.noReadme')}</p>`;
  return html`<section aria-labelledby="readme-heading"><h2 id="readme-heading">${t('plugin.readme')}</h2>${switcher}${body}</section>`;
}

interface Screenshot {
  url: string;
  caption?: string;
  alt?: string;
}

type ServedScreenshot = components['schemas']['ServedScreenshotDto'];
type ServedImage = components['schemas']['ServedImageDto'];

function screenshotsOf(metadata: Record<string, unknown>): Screenshot[] {
  const list = Array.isArray(metadata.screenshots) ? (metadata.screenshots as unknown[]) : [];
  return list.filter((s): s is Screenshot => typeof s === 'object' && s !== null && safeUrl((s as Screenshot).url) !== null);
}

/** `srcset` with width descriptors, narrowest first. */
export function srcsetOf(variants: readonly ServedImage[]): string {
  return variants.map((v) => `${v.url} ${v.width}w`).join(', ');
}

/**
 * The plugin's icon, as this registry serves it (64, 128 and 256 px squares): decorative, since
 * the heading beside it names the plugin. Nothing when there is none.
 */
export function pluginIcon(plugin: PluginDetail): SafeHtml | null {
  // `images` may be missing from an answer cached by an older build (a rolling deploy).
  const icon = plugin.images?.icon;
  if (!icon) return null;
  return html`<img class="plugin-icon" src="${icon.url}" srcset="${srcsetOf(icon.variants)}" sizes="64px" width="64" height="64" alt="" decoding="async">`;
}

function galleryItem(shot: ServedScreenshot, t: Translate): SafeHtml {
  const name = shot.alt || shot.caption || t('plugin.screenshot', { n: shot.index + 1 });
  const widest = shot.variants[shot.variants.length - 1] ?? shot;
  // The link opens the widest encoding: reachable by keyboard, and the image's alt text names it.
  return html`<li><figure><a href="${widest.url}" class="shot"><img src="${shot.url}" srcset="${srcsetOf(shot.variants)}" sizes="(min-width: 48rem) 20rem, 100vw" width="${shot.width}" height="${shot.height}" alt="${name}" loading="lazy" decoding="async"></a>${
    shot.caption ? html`<figcaption>${shot.caption}</figcaption>` : null
  }</figure></li>`;
}

/**
 * The screenshots: a gallery of the ones this registry fetched and serves (the site's
 * Content-Security-Policy loads images from this origin only), then, as links, any the manifest
 * names that it does not serve (a release published before pictures were fetched, or one that
 * could not be fetched).
 */
export function screenshotsSection(plugin: PluginDetail, t: Translate): SafeHtml | null {
  const served = plugin.images?.screenshots ?? [];
  const servedIndexes = new Set(served.map((s) => s.index));
  const linked = screenshotsOf(plugin.metadata)
    .map((s, i) => ({ ...s, i }))
    .filter((s) => !servedIndexes.has(s.i));
  if (served.length === 0 && linked.length === 0) return null;
  return html`<section aria-labelledby="screenshots-heading"><h2 id="screenshots-heading">${t('plugin.screenshots')}</h2>${
    served.length ? html`<ul class="gallery">${served.map((shot) => galleryItem(shot, t))}</ul>` : null
  }${
    linked.length
      ? html`<ol class="screenshots">${linked.map(
          (s) =>
            html`<li><a href="${s.url}" rel="noopener nofollow">${s.caption || s.alt || t('plugin.screenshot', { n: s.i + 1 })}</a>${s.caption && s.alt ? html` <span class="meta">${s.alt}</span>` : null}</li>`,
        )}</ol>`
      : null
  }</section>`;
}

export function versionsSection(plugin: PluginDetail, locale: string, t: Translate): SafeHtml | null {
  if (plugin.releases.length === 0) return null;
  return html`<section aria-labelledby="versions-heading"><h2 id="versions-heading">${t('plugin.versions')}</h2>${scrollRegion(
    t('plugin.versions'),
    html`<table class="versions">
  <thead><tr><th scope="col">${t('plugin.versionColumn')}</th><th scope="col">${t('plugin.released')}</th><th scope="col">${t('plugin.minRuntime')}</th><th scope="col">${t('plugin.downloadCount')}</th></tr></thead>
  <tbody>${plugin.releases.map(
    (r) =>
      html`<tr${r.yanked ? html` class="yanked"` : null}><th scope="row"><span class="number">${r.version}</span> ${r.prerelease ? html`<span class="badge">${t('plugin.prerelease')}</span>` : null}${r.yanked ? html`<span class="badge yanked" title="${r.yankReason ?? ''}">${t('plugin.yanked')}</span>${r.yankReason ? html`<br><span class="meta">${r.yankReason}</span>` : null}` : null}</th><td>${formatDate(r.createdAt, locale)}</td><td>${r.minRuntimeVersion ?? '—'}</td><td>${t.number(r.downloads)}</td></tr>`,
  )}</tbody></table>`,
  )}</section>`;
}

/** The repository's figures the forge told: what it did not tell is left out, and with nothing told, the section. */
export function statsSection(stats: ProviderStats | null, locale: string, t: Translate): SafeHtml | null {
  if (!stats) return null;
  const facts: [string, string][] = [];
  if (stats.stars !== null) facts.push([t('plugin.stars'), t.number(stats.stars)]);
  if (stats.forks !== null) facts.push([t('plugin.forks'), t.number(stats.forks)]);
  if (stats.watchers !== null) facts.push([t('plugin.watchers'), t.number(stats.watchers)]);
  if (stats.lastPushAt !== null) facts.push([t('plugin.lastPush'), formatDate(stats.lastPushAt, locale)]);
  if (facts.length === 0) return null;
  return html`<section aria-labelledby="stats-heading"><h2 id="stats-heading">${t('plugin.repoStats')}</h2><dl class="facts">
  ${facts.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}
</dl></section>`;
}

/** A field's name as people read it: its declared label, else its key in words (`min_width`: "Min width"). */
export function fieldLabel(field: { key: string; label?: string }): string {
  if (field.label) return field.label;
  const words = field.key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function extensionValue(value: unknown, t: Translate): string {
  if (typeof value === 'boolean') return value ? t('browse.yes') : t('browse.no');
  if (typeof value === 'number') return t.number(value);
  if (Array.isArray(value)) return value.map((item) => extensionValue(item, t)).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The plugin's extension values as `<dt>`/`<dd>` pairs, each named by its field's label: the
 * fields of its kind and those of every kind in their declared order, then any value whose field
 * is no longer declared.
 */
export function extensionFacts(plugin: PluginDetail, kinds: KindList | null, t: Translate): SafeHtml[] {
  const values = plugin.extensions ?? {};
  const declared = [...(kinds?.kinds.find((k) => k.key === plugin.kind)?.extensionFields ?? []), ...(kinds?.extensionFields ?? [])];
  const known = new Set(declared.map((f) => f.key));
  const fields = [
    ...declared,
    ...Object.keys(values)
      .filter((key) => !known.has(key))
      .map((key) => ({ key })),
  ];
  return fields
    .filter((field) => values[field.key] !== undefined && values[field.key] !== null)
    .map((field) => html`<dt>${fieldLabel(field)}</dt><dd>${extensionValue(values[field.key], t)}</dd>`);
}

/** The repository and whatever the manifest points at: homepage, documentation, issues, email. */
export function linksSection(plugin: PluginDetail, stats: ProviderStats | null, t: Translate): SafeHtml {
  const meta = plugin.metadata;
  const support = typeof meta.support === 'object' && meta.support !== null ? (meta.support as Record<string, unknown>) : {};
  const email = typeof support.email === 'string' && /^[^\s@<>]+@[^\s@<>]+$/.test(support.email) ? support.email : null;
  const links: [string, string | null][] = [
    ['plugin.link.repo', safeUrl(plugin.repoUrl)],
    ['plugin.link.homepage', safeUrl(meta.homepage) ?? safeUrl(stats?.homepage)],
    ['plugin.link.docs', safeUrl(meta.documentation_url)],
    ['plugin.link.issues', safeUrl(support.issues_url)],
    ['plugin.link.email', email ? `mailto:${email}` : null],
  ];
  return html`<section aria-labelledby="links-heading"><h2 id="links-heading">${t('plugin.links')}</h2><ul class="links">${links
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(
      ([key, url]) =>
        html`<li><a href="${url}" rel="noopener"${key === 'plugin.link.repo' ? html` class="repo"` : null}>${t(key)}</a></li>`,
    )}</ul></section>`;
}
