import { focusableScrollers } from './components/scroll-region';
import { defaultFavicon, faviconVersion } from './favicon';
import { allMessages, translator } from './i18n/messages';
import { pluralKey, pluralKeys } from './i18n/plural';
import { extensionFacts, fieldLabel, statsSection, type KindList, type PluginDetail } from './pages/catalogue/plugin-sections';

describe('counts by plural rules', () => {
  it('picks the plural form of the number in the UI language, and writes numbers its way', () => {
    const en = translator('en');
    expect([0, 1, 2, 1234].map((n) => en.count('browse.count', n))).toEqual([
      '0 plugins found',
      '1 plugin found',
      '2 plugins found',
      '1,234 plugins found',
    ]);
    expect(en.count('wishlist.votes', 1)).toBe('1 vote');
    const de = translator('de-AT');
    expect([1, 2, 1234].map((n) => de.count('plugin.downloads', n))).toEqual(['1 Download', '2 Downloads', '1.234 Downloads']);
    // A site locale without UI strings reads English strings by English rules (French says "0 plugin").
    expect(translator('fr').count('browse.count', 0)).toBe('0 plugins found');
    expect(translator('fr').number(1234)).toBe('1,234');
  });

  it('falls back to the `other` form when a language gives a category no string', () => {
    const has = (key: string) => key.endsWith('.other');
    expect(pluralKey('ar', 'x', 3, has)).toBe('x.other');
    expect(pluralKey('en', 'x', 1, () => true)).toBe('x.one');
    expect(pluralKeys('x')).toEqual(['x.zero', 'x.one', 'x.two', 'x.few', 'x.many', 'x.other']);
  });

  it('has both forms of every counted message in each UI language', () => {
    for (const messages of Object.values(allMessages())) {
      const counted = [...messages.keys()].filter((key) => /\.(one|other)$/.test(key)).map((key) => key.replace(/\.(one|other)$/, ''));
      for (const key of counted) expect([key, messages.has(`${key}.one`), messages.has(`${key}.other`)]).toEqual([key, true, true]);
    }
  });
});

describe('scrolling boxes reachable by keyboard', () => {
  it('makes each code block of sanitized HTML focusable and named, and each table a named, focusable box', () => {
    const t = translator('en');
    const out = focusableScrollers(
      '<p>x</p><pre><code class="language-sh">a</code></pre><table><tr><td>1</td></tr></table><pre class="x">b</pre><table></table>',
      t,
    ).value;
    expect(out).toBe(
      '<p>x</p><pre tabindex="0" role="group" aria-label="Code block 1"><code class="language-sh">a</code></pre>' +
        '<div class="table-scroll" tabindex="0" role="group" aria-label="Table 1"><table><tr><td>1</td></tr></table></div>' +
        '<pre class="x" tabindex="0" role="group" aria-label="Code block 2">b</pre>' +
        '<div class="table-scroll" tabindex="0" role="group" aria-label="Table 2"><table></table></div>',
    );
    expect(focusableScrollers('<preview>no</preview><tablet></tablet>', t).value).toBe('<preview>no</preview><tablet></tablet>');
  });
});

describe('the favicon', () => {
  it("draws the site name's first letter on the brand colour, in the colour that reads on it", () => {
    expect(defaultFavicon({ siteName: 'acme <Plugins>', primaryColor: '#ffdd00' })).toContain('fill="#ffdd00"/><text');
    expect(defaultFavicon({ siteName: 'acme <Plugins>', primaryColor: '#ffdd00' })).toMatch(/fill="#000000">A<\/text><\/svg>$/);
    expect(defaultFavicon({ siteName: '<b>', primaryColor: 'red' })).toMatch(/fill="#2563eb".*fill="#ffffff">&lt;<\/text>/);
  });

  it("changes its link's version with what it is made from", () => {
    const branding = { siteName: 'A', primaryColor: '#123456', logoUrl: null };
    expect(faviconVersion(branding, false)).toMatch(/^[0-9a-f]{12}$/);
    expect(faviconVersion({ ...branding, primaryColor: '#654321' }, false)).not.toBe(faviconVersion(branding, false));
    expect(faviconVersion({ ...branding, logoUrl: 'https://r.example/logo.png' }, true)).not.toBe(faviconVersion(branding, false));
  });
});

describe("the plugin page's facts", () => {
  const t = translator('en');
  const kinds: KindList = {
    kinds: [
      {
        key: 'theme',
        label: 'Themes',
        description: null,
        extensionFields: [
          { key: 'dark', type: 'boolean', label: 'Dark variant' },
          { key: 'min_width', type: 'number' },
        ],
        requireProvenance: false,
      },
    ],
    extensionFields: [{ key: 'platforms', type: 'string[]', label: 'Runs on' }],
  };

  it('names extension values by their field labels (the key in words without one), kind fields first', () => {
    const plugin = {
      kind: 'theme',
      extensions: { platforms: ['linux', 'mac'], min_width: 1200, dark: false, retired: 'x', empty: null },
    } as unknown as PluginDetail;
    expect(extensionFacts(plugin, kinds, t).map((f) => f.value)).toEqual([
      '<dt>Dark variant</dt><dd>No</dd>',
      '<dt>Min width</dt><dd>1,200</dd>',
      '<dt>Runs on</dt><dd>linux, mac</dd>',
      '<dt>Retired</dt><dd>x</dd>',
    ]);
    expect(fieldLabel({ key: 'color-scheme' })).toBe('Color scheme');
  });

  it('leaves out repository figures the forge did not tell, and the section when it told none', () => {
    const none = { stars: null, forks: null, watchers: null, lastPushAt: null, homepage: null };
    expect(statsSection(none, 'en', t)).toBeNull();
    const some = statsSection({ ...none, stars: 1234 }, 'en', t)!.value;
    expect(some).toContain('<dt>Stars</dt><dd>1,234</dd>');
    expect(some).not.toContain('Forks');
    expect(some).not.toContain('unknown');
  });
});
