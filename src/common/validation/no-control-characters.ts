import { Satisfies } from './satisfies';

/** True when the string holds a C0 control character (NUL, BEL, newline...) or DEL. */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A one-line text field: no C0 control characters nor DEL (a NUL would also fail PostgreSQL's
 * text and jsonb: 22021 / 22P05). Anything but a string passes, for `@IsString` to refuse.
 */
export const NoControlCharacters = () =>
  Satisfies(
    'noControlCharacters',
    (v) => typeof v !== 'string' || !hasControlCharacters(v),
    (p) => `${p}: must not contain control characters`,
  );
