import { FORBIDDEN_KEYS } from './constants';
import { SPEC_MANIFEST_FIELDS } from './rules';
import type { ExtensionFieldDeclaration } from './types';
import { childPointer } from './violations';

/** A declared extension field's key: how a top-level manifest key may look. */
export const EXTENSION_KEY_PATTERN = /^[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*$/;

export interface DeclarationProblem {
  path: string;
  message: string;
}

/**
 * Why a list of extension-field declarations cannot be used, one item per problem at its JSON
 * pointer (`/fields/2/enum/0`): keys that collide with the manifest's own fields or with each
 * other, enum values of another type than the field's, a maxLength on a field without length.
 */
export function declarationProblems(declarations: readonly ExtensionFieldDeclaration[], root = ''): DeclarationProblem[] {
  const problems: DeclarationProblem[] = [];
  const seen = new Set<string>();
  declarations.forEach((declaration, index) => {
    const at = childPointer(root, index);
    const say = (path: string, message: string) => problems.push({ path, message: `${path.slice(1)}: ${message}` });
    if (!EXTENSION_KEY_PATTERN.test(declaration.key)) say(`${at}/key`, `must match ${EXTENSION_KEY_PATTERN.source}`);
    else if (Object.hasOwn(SPEC_MANIFEST_FIELDS, declaration.key) || FORBIDDEN_KEYS.has(declaration.key))
      say(`${at}/key`, `"${declaration.key}" is a field of the manifest format itself`);
    else if (seen.has(declaration.key)) say(`${at}/key`, `"${declaration.key}" is declared twice`);
    seen.add(declaration.key);
    const itemType = declaration.type === 'number' ? 'number' : declaration.type === 'boolean' ? null : 'string';
    declaration.enum?.forEach((value, position) => {
      if (itemType === null) say(`${at}/enum`, 'a boolean field takes no enum');
      else if (typeof value !== itemType) say(`${at}/enum/${position}`, `must be a ${itemType}, as the field is ${declaration.type}`);
    });
    if (declaration.maxLength !== undefined && itemType !== 'string')
      say(`${at}/maxLength`, `applies to string fields only, not ${declaration.type}`);
  });
  return [...new Map(problems.map((p) => [`${p.path}|${p.message}`, p])).values()];
}
