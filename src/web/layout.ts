import { APP_VERSION } from '../common/app-info';
import { textOn } from './colour';
import { alternateLinks, type FeedLink } from './components/feed-links';
import { faviconVersion } from './favicon';
import { html, jsonData, type SafeHtml } from './html';
import type { WebAssets } from './web-assets';
import type { WebContext } from './web-context';

export interface PageSpec {
  /** The page's own title; the site name is appended. */
  title: string;
  /** For search engines and link previews (meta description, og:description). */
  description?: string;
  /** og:type: `website` unless the page is one thing (a plugin: `article`). */
  ogType?: 'website' | 'article';
  /** An absolute or root-relative image for link previews. */
  ogImage?: string | null;
  main: SafeHtml;
  /** Browser bundles (names under /assets, without `.js`) this page enhances itself with. */
  scripts?: readonly string[];
  /** UI string keys the page's scripts need, sent as a JSON data block. */
  clientStrings?: readonly string[];
  /** Data for the page's scripts, sent as a JSON data block (never secrets). */
  clientData?: unknown;
  /** The Atom feeds of what the page shows, linked from its head (`<link rel="alternate">`). */
  alternates?: readonly FeedLink[];
  /** The HTTP status, when a page that says what went wrong is not a 200 (a used sign-in link: 410). */
  httpStatus?: number;
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export { textOn };

function currentUrlWith(ctx: WebContext, lang: string): string {
  const url = new URL(ctx.request.originalUrl, 'http://page.invalid');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

/**
 * The logo only when this site serves it: the Content-Security-Policy loads images from this
 * origin alone, and a blocked logo would be a console error on every page.
 */
export function sameHostLogo(ctx: Pick<WebContext, 'branding' | 'request'>): boolean {
  const url = ctx.branding.logoUrl;
  if (!url || !URL.canParse(url)) return false;
  return new URL(url).host === ctx.request.headers.host;
}

function header(ctx: WebContext): SafeHtml {
  const { t, branding, features, me } = ctx;
  const logo = sameHostLogo(ctx) ? html`<img src="${branding.logoUrl}" alt="" width="28" height="28">` : null;
  const query = typeof ctx.request.query.q === 'string' ? ctx.request.query.q : '';
  return html`<header class="site-header">
  <a class="skip-link" href="#main">${t('skip.toContent')}</a>
  <div class="bar">
    <a class="brand" href="/">${logo}<span>${branding.siteName}</span></a>
    <form class="search" role="search" aria-label="${t('search.label')}" action="/plugins" method="get">
      <label class="visually-hidden" for="site-search">${t('search.label')}</label>
      <input id="site-search" name="q" type="search" value="${query}" placeholder="${t('search.placeholder')}" autocomplete="off" data-suggest>
      <button type="submit">${t('search.submit')}</button>
    </form>
    <nav aria-label="${t('nav.menu')}">
      <ul>
        <li><a href="/plugins">${t('nav.browse')}</a></li>
        ${features.requests !== false ? html`<li><a href="/wishlist">${t('nav.wishlist')}</a></li>` : null}
        ${features.submit !== false ? html`<li><a href="/submit">${t('nav.submit')}</a></li>` : null}
        ${me ? html`<li><a href="/account">${t('nav.account')}</a></li>` : html`<li><a href="/sign-in">${t('nav.signIn')}</a></li>`}
        ${me?.role === 'admin' ? html`<li><a href="/admin">${t('nav.admin')}</a></li>` : null}
      </ul>
    </nav>
  </div>
</header>`;
}

function footer(ctx: WebContext): SafeHtml {
  const { t, branding, locales, locale } = ctx;
  const languages =
    locales.length > 1
      ? html`<nav class="languages" aria-label="${t('language.label')}"><ul>${locales.map((l) => html`<li><a href="${currentUrlWith(ctx, l)}" hreflang="${l}" lang="${l}"${l === locale ? html` aria-current="true"` : null}>${l}</a></li>`)}</ul></nav>`
      : null;
  return html`<footer class="site-footer">
  ${languages}
  <ul class="links">
    ${branding.links.map((link) => html`<li><a href="${link.url}" rel="noopener">${link.label}</a></li>`)}
    <li><a href="/openapi">${t('footer.api')}</a></li>
    <li><a href="/.well-known/registry-key.json">${t('footer.keys')}</a></li>
    <li><a href="/health/ready">${t('footer.status')}</a></li>
  </ul>
  <p class="powered">${t('footer.poweredBy', { version: APP_VERSION })}</p>
</footer>`;
}

/** A whole HTML document: the site's frame around a page, readable before (and without) any script. */
export function renderPage(ctx: WebContext, assets: WebAssets, page: PageSpec): string {
  const { branding, t } = ctx;
  const brand = HEX_COLOR.test(branding.primaryColor) ? branding.primaryColor : '#2563eb';
  const title = page.title ? `${page.title} · ${branding.siteName}` : branding.siteName;
  const scripts = ['app', ...(page.scripts ?? [])];
  // Only keys that have a string: a counted message lists every plural category, and a language uses a few.
  const strings = Object.fromEntries((page.clientStrings ?? []).filter((key) => t.has(key)).map((key) => [key, t(key)]));
  return html`<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${page.description ? html`<meta name="description" content="${page.description}">` : null}
<meta property="og:site_name" content="${branding.siteName}">
<meta property="og:title" content="${page.title || branding.siteName}">
<meta property="og:type" content="${page.ogType ?? 'website'}">
${page.description ? html`<meta property="og:description" content="${page.description}">` : null}
${page.ogImage ? html`<meta property="og:image" content="${page.ogImage}">` : null}
<meta name="theme-color" content="${brand}">
<link rel="icon" href="/favicon.ico?v=${faviconVersion(branding, sameHostLogo(ctx))}"${sameHostLogo(ctx) ? null : html` type="image/svg+xml"`}>
<link rel="stylesheet" href="${assets.url('app.css')}">
${page.alternates?.length ? alternateLinks(page.alternates) : null}${scripts.filter((name) => assets.has(`${name}.js`)).map((name) => html`<script type="module" src="${assets.url(`${name}.js`)}"></script>`)}
</head>
<body style="--brand:${brand};--on-brand:${textOn(brand)}">
${header(ctx)}
<main id="main" tabindex="-1">
${page.main}
</main>
${footer(ctx)}
<script type="application/json" id="page-strings" data-locale="${t.locale}">${jsonData(strings)}</script>
${page.clientData === undefined ? null : html`<script type="application/json" id="page-data">${jsonData(page.clientData)}</script>`}
</body>
</html>
`.value;
}
