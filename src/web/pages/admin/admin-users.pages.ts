import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionButton, actionForm, dataTable, field, pageNumber, pager, queryText, when } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

const PAGE_SIZE = 25;
const ROLES = ['user', 'admin'] as const;

/** `/admin/users`: every account, a page at a time, with its role and whether it is disabled. */
@Injectable()
export class AdminUserPages {
  constructor(private readonly renderer: WebRenderer) {}

  users(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.build(ctx)));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, api, request, me } = ctx;
    const search = queryText(request, 'search');
    const role = ROLES.find((r) => r === queryText(request, 'role'));
    const page = pageNumber(request);
    const result = need(
      await api.GET('/api/admin/users', {
        params: { query: { page, limit: PAGE_SIZE, ...(search ? { search } : {}), ...(role ? { role } : {}) } },
      }),
    );
    const rows = result.users.map((user) => {
      const id = `role-${user.id}`;
      const roleForm = actionForm(
        'user.role',
        { id: user.id },
        html`<label class="visually-hidden" for="${id}">${t('admin.users.roleOf', { login: user.login })}</label><select id="${id}" name="role">${ROLES.map((r) => html`<option value="${r}"${r === user.role ? html` selected` : null}>${t(`admin.users.role.${r}`)}</option>`)}</select>`,
        t('admin.users.setRole'),
        { className: 'admin-form inline' },
      );
      const self = user.id === me?.id;
      const toggle = user.disabled
        ? actionButton(
            'user.enable',
            t('admin.users.enable'),
            { id: user.id },
            { style: 'secondary', ariaLabel: t('admin.users.enableNamed', { login: user.login }) },
          )
        : self
          ? null
          : actionButton(
              'user.disable',
              t('admin.users.disable'),
              { id: user.id },
              {
                style: 'danger',
                confirm: t('admin.users.disable.confirm', { login: user.login }),
                ariaLabel: t('admin.users.disableNamed', { login: user.login }),
              },
            );
      return [
        html`${user.login}${user.disabled ? html` <span class="badge yanked">${t('admin.users.disabled')}</span>` : null}<br><code class="meta">${user.id}</code>`,
        user.instance,
        user.email ?? '—',
        roleForm,
        when(user.createdAt),
        toggle,
      ];
    });
    const pages = Math.max(1, Math.ceil(result.total / result.limit));
    const body = html`<form class="admin-filters" method="get" action="/admin/users" role="search">
${field('admin-user-search', t('admin.users.search'), html`<input id="admin-user-search" name="search" type="search" value="${search ?? ''}">`)}
${field('admin-user-role', t('admin.users.role'), html`<select id="admin-user-role" name="role"><option value="">${t('admin.any')}</option>${ROLES.map((r) => html`<option value="${r}"${r === role ? html` selected` : null}>${t(`admin.users.role.${r}`)}</option>`)}</select>`)}
<p><button type="submit">${t('admin.filter')}</button></p>
</form>
<p class="meta">${t('admin.users.total', { count: result.total })}</p>
${dataTable(t('admin.section.users'), [t('admin.users.login'), t('admin.users.instance'), t('admin.users.email'), t('admin.users.role'), t('admin.users.created'), t('admin.actions')], rows, t('admin.users.none'))}
${pager(t, '/admin/users', { search, role }, result.page, pages)}`;
    return adminPage(ctx, 'users', t('admin.section.users'), body);
  }
}
