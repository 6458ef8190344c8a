import type { Violation } from './types';

/** Appends one reference token to a JSON pointer (RFC 6901 escaping). */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** How a message names its field: the pointer without its leading slash, or "manifest" for the root. */
export function fieldLabel(pointer: string): string {
  return pointer === '' ? 'manifest' : pointer.slice(1);
}

/** Every message reads "<field>: <rule>", e.g. "tags/3: must be at most 30 characters". */
export function violation(pointer: string, rule: string): Violation {
  return { path: pointer, message: `${fieldLabel(pointer)}: ${rule}` };
}

/**
 * One line for people: "/tags/3: must be at most 30 characters". Messages built here already name
 * the field, so the pointer replaces that name rather than repeating it.
 */
export function formatViolation(item: Violation): string {
  const prefix = `${fieldLabel(item.path)}: `;
  const rule = item.message.startsWith(prefix) ? item.message.slice(prefix.length) : item.message;
  return `${item.path === '' ? '(manifest)' : item.path}: ${rule}`;
}

/** Code points, which is how the spec's character limits count. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(value) ? 'a number' : String(value);
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}
