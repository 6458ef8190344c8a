import { README_SEARCH_TEXT_MAX, readmeSearchText } from './readme-search-text';

describe('readmeSearchText', () => {
  it('keeps the words of the default README without markup or entities', () => {
    expect(readmeSearchText({ default: '<h1>Usage</h1>\n<p>Run <code>a &amp; b</code> &lt;fast&gt;</p>', de: '<p>Nutzung</p>' })).toBe(
      'Usage Run a & b <fast>',
    );
  });

  it('falls back to English, then the first locale, then nothing', () => {
    expect(readmeSearchText({ fr: '<p>Bonjour</p>', en: '<p>Hello</p>' })).toBe('Hello');
    expect(readmeSearchText({ fr: '<p>Bonjour</p>' })).toBe('Bonjour');
    expect(readmeSearchText({})).toBe('');
  });

  it('is bounded however long the README', () => {
    expect(readmeSearchText({ default: `<p>${'word '.repeat(50_000)}</p>` })).toHaveLength(README_SEARCH_TEXT_MAX);
  });
});
