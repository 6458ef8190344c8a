import { html, type SafeHtml } from '../../html';
import type { PageSpec } from '../../layout';
import type { WebContext } from '../../web-context';
import type { PageOutcome } from '../../web-renderer';

/** The console's sections, in the order the sub-navigation lists them. */
export const ADMIN_SECTIONS = [
  'plugins',
  'kinds',
  'users',
  'settings',
  'site',
  'pages',
  'audit',
  'deliveries',
  'keys',
  'requests',
] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

/** The UI strings admin.ts (the browser bundle) reads on every console page. */
const CLIENT_STRINGS = [
  'status.working',
  'status.saved',
  'admin.confirm',
  'admin.failed',
  'admin.owner.unknown',
  'admin.json.invalid',
] as const;

/** Anonymous visitors are asked to sign in, signed-in non-admins are refused; admins get null. */
export function adminRefusal(ctx: WebContext): PageOutcome | null {
  if (!ctx.me) return { status: 401 };
  if (ctx.me.role !== 'admin') return { status: 403 };
  return null;
}

/** An API refusal met while building a page: it becomes the framed error page of that status. */
export class PageRefusal extends Error {
  constructor(readonly status: 401 | 403 | 404 | 503) {
    super(`the API answered ${status}`);
  }
}

/**
 * An API answer the page cannot do without: its data, or a PageRefusal with the status the API
 * gave (a session that ended between the layout's call and this one, a plugin gone).
 */
export function need<T>(result: { data?: T; response: Response }): T {
  if (result.data !== undefined) return result.data;
  const status = result.response.status;
  throw new PageRefusal(status === 401 || status === 403 || status === 404 ? status : 503);
}

/** Runs a console page's builder for admins only, turning API refusals into error pages. */
export async function asAdmin(ctx: WebContext, build: () => Promise<PageOutcome>): Promise<PageOutcome> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  try {
    return await build();
  } catch (error) {
    if (error instanceof PageRefusal) return { status: error.status };
    throw error;
  }
}

function subNavigation(ctx: WebContext, current: AdminSection): SafeHtml {
  return html`<nav class="admin-nav" aria-label="${ctx.t('admin.nav.label')}"><ul>${ADMIN_SECTIONS.map(
    (section) =>
      html`<li><a href="/admin/${section}"${section === current ? html` aria-current="page"` : null}>${ctx.t(`admin.section.${section}`)}</a></li>`,
  )}</ul></nav>`;
}

/** A console page: the sub-navigation, the heading, one live region for every change's outcome, the body. */
export function adminPage(
  ctx: WebContext,
  section: AdminSection,
  title: string,
  body: SafeHtml,
  extraStrings: readonly string[] = [],
): PageSpec {
  const main = html`<div class="admin">
${subNavigation(ctx, section)}
<div class="admin-body">
<h1>${title}</h1>
<noscript><p class="admin-note">${ctx.t('admin.noscript')}</p></noscript>
<p id="admin-status" class="status" role="status" aria-live="polite"></p>
${body}
</div>
</div>`;
  return { title: `${title} · ${ctx.t('nav.admin')}`, main, scripts: ['admin'], clientStrings: [...CLIENT_STRINGS, ...extraStrings] };
}
