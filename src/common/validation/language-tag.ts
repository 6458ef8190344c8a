import { Transform } from 'class-transformer';
import { normalizeLanguageTag } from '../../lib/locale/locale';
import { Satisfies } from './satisfies';

/** A well-formed BCP 47 language tag (any letter case, `_` for `-`); the resolver does the rest. */
export const IsLanguageTag = () =>
  Satisfies(
    'isLanguageTag',
    (value) => normalizeLanguageTag(value) !== null,
    (p) => `${p}: must be a language tag such as en, pt-BR or zh-Hant-TW (at most 64 characters)`,
  );

/**
 * Reads a locale that looks up something stored (a page's locale) in canonical case, `_` as `-`
 * (`PT_br` → `pt-BR`), before its own pattern is checked; a value that is not a well-formed tag
 * is left as sent, for the validator to name.
 */
export const AsLanguageTag = () => Transform(({ value }: { value: unknown }) => normalizeLanguageTag(value) ?? value);
