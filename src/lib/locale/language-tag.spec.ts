import { lookupChain, normalizeLanguageTag, resolveLocale } from './locale';

describe('normalizeLanguageTag', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['pt_br', 'pt-BR'],
    ['PT-br', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['zh_Hant_TW', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['sr-Latn-RS', 'sr-Latn-RS'],
    ['de-CH-1996', 'de-CH-1996'],
    ['zh-yue-HK', 'zh-yue-HK'],
    ['en-US-u-ca-gregory', 'en-US-u-ca-gregory'],
    ['de-CH-x-Phonebk', 'de-CH-x-phonebk'],
    ['x-whatever', 'x-whatever'],
    ['english', 'english'],
    ['i-klingon', 'i-klingon'],
    ['en-GB-oed', 'en-gb-oed'],
  ])('reads %j as the well-formed tag %j', (input, expected) => {
    expect(normalizeLanguageTag(input)).toBe(expected);
  });

  it.each([
    ['a--b'],
    ['../de'],
    ['de;q=0.9'],
    [''],
    ['-en'],
    ['en-'],
    ['e'],
    ['en US'],
    [' en'],
    ['toolongtag'],
    ['en-x'],
    ['en-u'],
    ['a'.repeat(300)],
    [`en-${'abcdefgh-'.repeat(7)}x`],
    [42],
    [null],
  ])('refuses %j', (input) => {
    expect(normalizeLanguageTag(input)).toBeNull();
  });
});

describe('lookupChain (RFC 4647 lookup)', () => {
  it('cuts one subtag at a time, a trailing singleton with it', () => {
    expect(lookupChain('zh-Hant-TW')).toEqual(['zh-Hant-TW', 'zh-Hant', 'zh']);
    expect(lookupChain('en-US-x-twain')).toEqual(['en-US-x-twain', 'en-US', 'en']);
    expect(lookupChain('de')).toEqual(['de']);
  });
});

describe('resolveLocale', () => {
  const en = { defaultLocale: 'en' };

  it('matches without regard to case or _, and answers the stored spelling', () => {
    expect(resolveLocale('EN', ['de', 'en'], en)).toBe('en');
    expect(resolveLocale('pt_br', ['de', 'pt-BR'], en)).toBe('pt-BR');
    expect(resolveLocale('PT-br', ['de', 'pt-BR'], en)).toBe('pt-BR');
  });

  it('walks the lookup chain: zh-Hant-TW, zh-Hant, zh, then the default, then the first available', () => {
    expect(resolveLocale('zh-Hant-TW', ['en', 'zh', 'zh-Hant'], en)).toBe('zh-Hant');
    expect(resolveLocale('zh-Hant-TW', ['en', 'zh'], en)).toBe('zh');
    expect(resolveLocale('zh-Hant-TW', ['de', 'en'], en)).toBe('en');
    expect(resolveLocale('zh-Hant-TW', ['de', 'fr'], en)).toBe('de');
    expect(resolveLocale('zh-Hant-TW', ['de', 'fr'], { defaultLocale: 'fr' })).toBe('fr');
  });

  it('prefers the variant of the same region among the language variants', () => {
    expect(resolveLocale('zh-Hant-TW', ['zh-CN', 'zh-TW'], en)).toBe('zh-TW');
    expect(resolveLocale('pt', ['pt-PT', 'pt-BR'], en)).toBe('pt-PT');
  });

  it('treats a malformed request as no preference; answers the last resort when given', () => {
    expect(resolveLocale('a--b', ['de', 'en'], en)).toBe('en');
    expect(resolveLocale('ja', ['de'], { defaultLocale: 'en', lastResort: 'default' })).toBe('default');
    expect(resolveLocale('ja', [], en)).toBeNull();
  });
});
