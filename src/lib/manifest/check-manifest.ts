import { parseManifestText } from './parse-text';
import type { ValidateOptions, ValidationResult } from './types';
import { KINDS_NOT_CHECKED_NOTE, validateManifest } from './validate';

/** Parses and validates manifest text; violations from either step come back the same way. */
export function checkManifest(text: string, fileName: string | undefined, options: ValidateOptions): ValidationResult {
  const parsed = parseManifestText(text, fileName);
  if (!parsed.ok) return { ok: false, violations: parsed.violations, notes: options.kinds ? [] : [KINDS_NOT_CHECKED_NOTE], warnings: [] };
  return validateManifest(parsed.value, options);
}
