import type { Request } from 'express';
import { html, type HtmlValue, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';

/** An epoch-ms instant as a machine-readable <time>, shown in UTC (the audit log's clock). */
export function when(ms: number | string | null | undefined): SafeHtml | null {
  if (ms === null || ms === undefined) return null;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A table; on a phone each row stacks into a card whose cells carry their column's name (`data-label`). */
export function dataTable(caption: string, head: readonly string[], rows: readonly (readonly HtmlValue[])[], empty: string): SafeHtml {
  if (rows.length === 0) return html`<p class="admin-empty">${empty}</p>`;
  return html`<div class="table-scroll"><table class="admin-table">
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((cells) => html`<tr>${cells.map((c, i) => html`<td data-label="${head[i] ?? ''}"><div>${c}</div></td>`)}</tr>`)}</tbody>
</table></div>`;
}

/** Previous/next links that keep the other query parameters (a GET filter's choices). */
export function pager(t: Translate, path: string, query: Record<string, string | undefined>, page: number, pages: number): SafeHtml | null {
  if (pages <= 1) return null;
  const href = (to: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    params.set('page', String(to));
    return `${path}?${params.toString()}`;
  };
  return html`<nav class="pagination" aria-label="${t('pagination.label')}">
${page > 1 ? html`<a href="${href(page - 1)}" rel="prev">${t('pagination.previous')}</a>` : null}
<span>${t('pagination.page', { page, pages })}</span>
${page < pages ? html`<a href="${href(page + 1)}" rel="next">${t('pagination.next')}</a>` : null}
</nav>`;
}

export interface ActionOptions {
  /** Asked before the change is made (a destructive action). */
  confirm?: string;
  style?: 'danger' | 'secondary';
  /** An accessible name when the visible label alone is ambiguous in a list ("Delete" → "Delete 1.0.0"). */
  ariaLabel?: string;
}

/** The data-* attributes admin.ts reads an action's parameters from. */
function dataAttributes(data: Readonly<Record<string, string>>): SafeHtml[] {
  return Object.entries(data).map(([key, value]) => html` data-${key}="${value}"`);
}

/** One button that makes one change through the API (admin.ts handles `data-action`). */
export function actionButton(action: string, label: string, data: Readonly<Record<string, string>>, options: ActionOptions = {}): SafeHtml {
  return html`<form class="admin-action" method="post" data-action="${action}"${dataAttributes(data)}${options.confirm ? html` data-confirm="${options.confirm}"` : null}><button type="submit"${options.style ? html` class="${options.style}"` : null}${options.ariaLabel ? html` aria-label="${options.ariaLabel}"` : null}>${label}</button></form>`;
}

/** A form whose fields admin.ts sends to the API as one change. */
export function actionForm(
  action: string,
  data: Readonly<Record<string, string>>,
  body: SafeHtml,
  submit: string,
  options: ActionOptions & { className?: string } = {},
): SafeHtml {
  return html`<form class="${options.className ?? 'admin-form'}" method="post" data-action="${action}"${dataAttributes(data)}${options.confirm ? html` data-confirm="${options.confirm}"` : null}>
${body}
<p class="admin-submit"><button type="submit"${options.style ? html` class="${options.style}"` : null}>${submit}</button> <span class="status" role="status" aria-live="polite"></span></p>
</form>`;
}

/** A labelled input; `control` is the input itself, whose id must be `id`. */
export function field(id: string, label: string, control: SafeHtml, hint?: string | null): SafeHtml {
  return html`<div class="field"><label for="${id}">${label}</label>${control}${hint ? html`<small id="${id}-hint">${hint}</small>` : null}</div>`;
}

/** A labelled checkbox (label after the box, as people expect). */
export function checkbox(id: string, name: string, label: string, checked: boolean): SafeHtml {
  return html`<div class="field check"><label for="${id}"><input id="${id}" name="${name}" type="checkbox"${checked ? html` checked` : null}> ${label}</label></div>`;
}

/** A trimmed, non-empty query parameter, or undefined. */
export function queryText(request: Request, name: string): string | undefined {
  const value = request.query[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The `page` query parameter as a page number (1 when absent or nonsense). */
export function pageNumber(request: Request): number {
  const page = Number(queryText(request, 'page') ?? 1);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
