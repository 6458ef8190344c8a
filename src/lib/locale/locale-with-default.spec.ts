import { resolveLocaleWithDefault } from './locale';

describe('resolveLocaleWithDefault (CMS pages)', () => {
  it('is null when nothing is available', () => {
    expect(resolveLocaleWithDefault('pt-BR', [], 'en')).toBeNull();
  });

  it('goes pt-BR, then pt, then the default locale, then the first available', () => {
    expect(resolveLocaleWithDefault('pt-BR', ['de', 'pt', 'pt-BR', 'fr'], 'fr')).toBe('pt-BR');
    expect(resolveLocaleWithDefault('pt-BR', ['de', 'pt', 'fr'], 'fr')).toBe('pt');
    expect(resolveLocaleWithDefault('pt-BR', ['de', 'fr'], 'fr')).toBe('fr');
    expect(resolveLocaleWithDefault('pt-BR', ['de', 'en'], 'fr')).toBe('de');
  });

  it('prefers the default locale exactly, then a variant of its language, never English for its own sake', () => {
    expect(resolveLocaleWithDefault('ja', ['en', 'pt-PT', 'pt-BR'], 'pt-BR')).toBe('pt-BR');
    expect(resolveLocaleWithDefault('ja', ['en', 'pt-PT'], 'pt-BR')).toBe('pt-PT');
    expect(resolveLocaleWithDefault('ja', ['de', 'en'], 'fr')).toBe('de');
  });

  it('treats a missing or malformed request as no preference', () => {
    expect(resolveLocaleWithDefault(undefined, ['de', 'fr'], 'fr')).toBe('fr');
    expect(resolveLocaleWithDefault('../fr', ['de', 'fr'], 'xx')).toBe('de');
    expect(resolveLocaleWithDefault('pt_br', ['pt-BR', 'fr'], 'fr')).toBe('pt-BR');
  });
});
