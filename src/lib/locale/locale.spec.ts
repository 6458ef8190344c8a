import { resolveReadmeLocale } from './locale';

describe('resolveReadmeLocale', () => {
  const available = ['de', 'pt-BR', 'pt-PT', 'fr', 'en-GB', 'zh-TW'];

  it('is null for a single-locale plugin', () => {
    expect(resolveReadmeLocale('de', [])).toBeNull();
    expect(resolveReadmeLocale(undefined, [])).toBeNull();
  });

  it.each([
    ['de', ['de', 'en'], 'de'],
    ['pt-BR', available, 'pt-BR'],
    ['pt-br', available, 'pt-BR'],
    ['pt_BR', available, 'pt-BR'],
    ['PT-pt', available, 'pt-PT'],
  ])('matches %j exactly (ignoring case and _ for -)', (requested, locales, expected) => {
    expect(resolveReadmeLocale(requested, locales)).toBe(expected);
  });

  it('falls back to the base language, then to a sibling variant', () => {
    expect(resolveReadmeLocale('de-AT', ['en', 'de'])).toBe('de');
    expect(resolveReadmeLocale('pt-BR', ['en', 'pt'])).toBe('pt');
    expect(resolveReadmeLocale('pt-BR', ['en', 'pt-PT'])).toBe('pt-PT');
    expect(resolveReadmeLocale('pt', ['en', 'pt-PT', 'pt-BR'])).toBe('pt-PT');
    expect(resolveReadmeLocale('pt', ['en', 'pt-BR', 'pt'])).toBe('pt');
    expect(resolveReadmeLocale('zh-Hant-TW', available)).toBe('zh-TW');
  });

  it('falls back to en, then an English variant, then the first available', () => {
    expect(resolveReadmeLocale('ja', ['de', 'en', 'fr'])).toBe('en');
    expect(resolveReadmeLocale('ja', ['de', 'en-GB', 'fr'])).toBe('en-GB');
    expect(resolveReadmeLocale('ja', ['fr', 'de'])).toBe('fr');
  });

  it('treats a missing or malformed request as no preference', () => {
    expect(resolveReadmeLocale(undefined, ['de', 'en'])).toBe('en');
    expect(resolveReadmeLocale(null, ['fr', 'de'])).toBe('fr');
    expect(resolveReadmeLocale('', ['de', 'en'])).toBe('en');
    expect(resolveReadmeLocale('de;q=0.9', ['de', 'en'])).toBe('en');
    expect(resolveReadmeLocale('../../de', ['de', 'en'])).toBe('en');
    expect(resolveReadmeLocale('x'.repeat(10_000), ['de', 'en'])).toBe('en');
  });
});
