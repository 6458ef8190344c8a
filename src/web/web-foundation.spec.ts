import { html, jsonData, raw } from './html';
import { allMessages } from './i18n/messages';
import { translator, uiLocale } from './i18n/messages';
import { sameHostLogo, textOn } from './layout';
import { acceptedLanguages, chooseLocale } from './web-context';

describe('html', () => {
  it('escapes every interpolated value, but not raw (sanitized) HTML or nested templates', () => {
    const name = '<img src=x onerror=alert(1)>"\'&';
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;">&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;</p>',
    );
    expect(html`<div>${raw('<b>ok</b>')}${html`<i>${'<'}</i>`}</div>`.value).toBe('<div><b>ok</b><i>&lt;</i></div>');
    expect(html`${[1, 'a', null, undefined, false]}`.value).toBe('1a');
  });

  it('keeps a JSON data block from closing its script tag', () => {
    expect(jsonData({ text: '</script><script>alert(1)</script>' }).value).not.toContain('</script>');
    expect(JSON.parse(jsonData({ text: '</script>' }).value)).toEqual({ text: '</script>' });
  });
});

describe('languages', () => {
  it('reads Accept-Language by q-value, ignoring junk and *', () => {
    expect(acceptedLanguages('de-AT;q=0.8, fr, *;q=0.1, en;q=0.9, <x>')).toEqual(['fr', 'en', 'de-AT']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('chooses the first wanted locale the site offers, by tag then by language', () => {
    expect(chooseLocale(['pt-BR', 'de'], ['en', 'de', 'pt-BR'], 'en')).toBe('pt-BR');
    expect(chooseLocale(['de-AT'], ['en', 'de'], 'en')).toBe('de');
    expect(chooseLocale(['ja'], ['en', 'de'], 'en')).toBe('en');
  });

  it('falls back to English UI strings for a locale without its own, and fills placeholders', () => {
    expect(uiLocale('pt-BR')).toBe('en');
    expect(uiLocale('de-CH')).toBe('de');
    expect(translator('de')('pagination.page', { page: 2, pages: 5 })).toBe('Seite 2 von 5');
    expect(translator('fr')('nav.signIn')).toBe('Sign in');
  });

  it('has every English key in German too', () => {
    const { en, de } = allMessages();
    expect([...de.keys()].sort()).toEqual([...en.keys()].sort());
  });
});

describe('brand colour', () => {
  it('puts the more readable of black and white on it', () => {
    expect(textOn('#2563eb')).toBe('#ffffff');
    expect(textOn('#ffd33d')).toBe('#000000');
  });
});

describe('logo', () => {
  const ctx = (logoUrl: string | null) => ({
    branding: { siteName: 'x', logoUrl, primaryColor: '#2563eb', links: [] },
    request: { headers: { host: 'registry.example.org' } } as never,
  });

  it('is drawn only when this host serves it (the CSP loads no image from elsewhere)', () => {
    expect(sameHostLogo(ctx('https://registry.example.org/logo.svg'))).toBe(true);
    expect(sameHostLogo(ctx('https://cdn.example.org/logo.svg'))).toBe(false);
    expect(sameHostLogo(ctx(null))).toBe(false);
  });
});
