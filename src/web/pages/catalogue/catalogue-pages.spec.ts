import { catalogueQuery, filterFields, readBrowseForm } from './browse.pages';
import { apiLocale, pageNumber, safeUrl } from './catalogue-parts';
import { shiftHeadings, signingKid } from './plugin-sections';

describe('catalogue pages: the pure parts', () => {
  it('reads the browse form from a query, keeping only what the API understands', () => {
    const form = readBrowseForm({
      q: ' dark ',
      kind: 'theme',
      verified: '1',
      featured: 'yes',
      sort: 'bogus',
      page: '3',
      'ext.dark': 'true',
      'ext.mood': '',
      tag: ['a', 'b'],
    });
    expect(form).toEqual({
      q: 'dark',
      kind: 'theme',
      category: '',
      tag: 'a',
      verified: true,
      featured: false,
      sort: '',
      page: 3,
      ext: { 'ext.dark': 'true' },
    });
  });

  it('asks the API for declared ext.* fields only, with the named parameters typed', () => {
    const fields = filterFields(
      [{ key: 'theme', label: 'Themes', description: null, extensionFields: [{ key: 'dark', type: 'boolean' }], requireProvenance: false }],
      [{ key: 'stars', type: 'number' }],
      'theme',
    );
    expect(fields.map((f) => f.key)).toEqual(['dark', 'stars']);
    const form = readBrowseForm({ q: 'x', 'ext.dark': 'true', 'ext.undeclared': '1' });
    expect(catalogueQuery(form, fields)).toEqual({ search: 'x', page: 1, limit: 20, facets: '1', 'ext.dark': 'true' });
  });

  it('links only http(s) addresses, pages from 1, and passes only locales the API accepts', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,x')).toBeNull();
    expect(safeUrl('https://example.com/a')).toBe('https://example.com/a');
    expect([pageNumber('0'), pageNumber('x'), pageNumber('7'), pageNumber(undefined)]).toEqual([1, 1, 7, 1]);
    expect([apiLocale('pt-BR'), apiLocale('de'), apiLocale('zh-Hant'), apiLocale('pt_br'), apiLocale('"><'), apiLocale('a--b')]).toEqual([
      'pt-BR',
      'de',
      'zh-Hant',
      'pt-BR',
      null,
      null,
    ]);
  });

  it('moves README headings below the page’s own and reads the kid from a JWS header', () => {
    expect(shiftHeadings('<h1 id="a">A</h1><h5>B</h5><header>x</header>', 2)).toBe('<h3 id="a">A</h3><h6>B</h6><header>x</header>');
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'key-1' })).toString('base64url');
    expect(signingKid(`${header}.payload.sig`)).toBe('key-1');
    expect(signingKid('not-a-jws')).toBeNull();
  });
});
