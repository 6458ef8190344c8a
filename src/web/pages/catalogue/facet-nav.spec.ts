import { facetHref } from './facet-nav';

describe('facetHref', () => {
  const url = new URL('http://x/plugins?q=dark&kind=theme&ext.accent=blue&ext.stars=5&tag=dark&page=3');
  const extParams = { byKind: { theme: ['ext.accent'], tool: ['ext.shell'] }, global: ['ext.stars'] };

  it('sets the value, keeps the other parameters, goes back to page 1', () => {
    expect(facetHref(url, 'tag', 'light', extParams)).toBe('/plugins?q=dark&kind=theme&ext.accent=blue&ext.stars=5&tag=light');
  });

  it('a kind link drops the ext.* parameters the kind it leads to does not declare (global ones kept)', () => {
    expect(facetHref(url, 'kind', 'tool', extParams)).toBe('/plugins?q=dark&kind=tool&ext.stars=5&tag=dark');
    expect(facetHref(url, 'kind', 'theme', extParams)).toBe('/plugins?q=dark&kind=theme&ext.accent=blue&ext.stars=5&tag=dark');
    // Clearing the kind keeps only the global fields.
    expect(facetHref(url, 'kind', null, extParams)).toBe('/plugins?q=dark&ext.stars=5&tag=dark');
    // An unknown kind declares nothing of its own.
    expect(facetHref(url, 'kind', 'gone', extParams)).toBe('/plugins?q=dark&kind=gone&ext.stars=5&tag=dark');
  });
});
