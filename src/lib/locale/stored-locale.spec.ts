import { resolveReadmeLocale, resolveStoredReadmeLocale } from './locale';

describe('resolveStoredReadmeLocale', () => {
  it('is null when nothing is stored, and default when only default is', () => {
    expect(resolveStoredReadmeLocale('de', [])).toBeNull();
    expect(resolveStoredReadmeLocale('de', ['default'])).toBe('default');
    expect(resolveStoredReadmeLocale(undefined, ['default'])).toBe('default');
  });

  it('goes exact locale, base language, en, then default, then the first available', () => {
    const stored = ['pt-BR', 'de', 'en-GB', 'default'];
    expect(resolveStoredReadmeLocale('pt_br', stored)).toBe('pt-BR');
    expect(resolveStoredReadmeLocale('pt-PT', stored)).toBe('pt-BR');
    expect(resolveStoredReadmeLocale('de-AT', stored)).toBe('de');
    expect(resolveStoredReadmeLocale('ja', stored)).toBe('en-GB');
    expect(resolveStoredReadmeLocale('ja', ['pt-BR', 'de', 'default'])).toBe('default');
    expect(resolveStoredReadmeLocale('ja', ['pt-BR', 'de'])).toBe('pt-BR');
    expect(resolveStoredReadmeLocale(null, ['fr', 'default', 'de'])).toBe('default');
  });

  it('never treats default as a language', () => {
    expect(resolveStoredReadmeLocale('default', ['fr', 'default'])).toBe('default');
    expect(resolveStoredReadmeLocale('def', ['fr', 'default'])).toBe('default');
    expect(resolveStoredReadmeLocale('de', ['default', 'fr'])).toBe('default');
  });

  it('agrees with resolveReadmeLocale when there is no default', () => {
    const available = ['de', 'pt-BR', 'pt-PT', 'fr', 'en-GB', 'zh-TW'];
    for (const requested of ['de', 'pt', 'pt-BR', 'zh-Hant-TW', 'ja', '', null, 'x'.repeat(100)]) {
      expect(resolveStoredReadmeLocale(requested, available)).toBe(resolveReadmeLocale(requested, available));
    }
  });
});
