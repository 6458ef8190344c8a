import { html } from '../../html';
import { translator } from '../../i18n/messages';
import { actionButton, dataTable, pager, when } from './admin-components';

const t = translator('en');

describe('admin components', () => {
  it('pages with previous and next links that keep the filters, and not at all for one page', () => {
    expect(pager(t, '/admin/audit', { action: 'plugin.verify', slug: undefined }, 1, 1)).toBeNull();
    const middle = pager(t, '/admin/audit', { action: 'plugin.verify', slug: 'a&b' }, 2, 3)!.value;
    expect(middle).toContain('href="/admin/audit?action=plugin.verify&amp;slug=a%26b&amp;page=1" rel="prev"');
    expect(middle).toContain('href="/admin/audit?action=plugin.verify&amp;slug=a%26b&amp;page=3" rel="next"');
    expect(middle).toContain('Page 2 of 3');
    expect(pager(t, '/admin/users', {}, 3, 3)!.value).not.toContain('rel="next"');
  });

  it('escapes table cells and labels each cell with its column for the phone layout', () => {
    const table = dataTable('Users', ['Login', 'Role'], [['<b>x</b>', html`<em>admin</em>`]], 'none').value;
    expect(table).toContain('<td data-label="Login"><div>&lt;b&gt;x&lt;/b&gt;</div></td>');
    expect(table).toContain('<td data-label="Role"><div><em>admin</em></div></td>');
    expect(dataTable('Users', ['Login'], [], 'No users.').value).toBe('<p class="admin-empty">No users.</p>');
  });

  it('escapes an action button’s parameters and confirmation', () => {
    const button = actionButton('page.delete', 'Delete', { slug: '"><script>' }, { confirm: 'Delete "<x>"?', style: 'danger' }).value;
    expect(button).toBe(
      '<form class="admin-action" method="post" data-action="page.delete" data-slug="&quot;&gt;&lt;script&gt;" data-confirm="Delete &quot;&lt;x&gt;&quot;?"><button type="submit" class="danger">Delete</button></form>',
    );
  });

  it('writes instants as UTC <time> elements, and nothing for none', () => {
    expect(when(Date.UTC(2026, 10, 23, 13, 5))!.value).toBe('<time datetime="2026-11-23T13:05:00.000Z">2026-11-23 13:05 UTC</time>');
    expect(when(null)).toBeNull();
  });
});
