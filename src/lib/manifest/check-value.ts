import { validRange } from 'semver';
import { didYouMean } from './did-you-mean';
import type { ArrayRule, MapRule, NumberRule, ObjectRule, StringRule, ValueRule } from './rules';
import type { Violation } from './types';
import { characterCount, childPointer, describeType, violation } from './violations';

/** Longest list of allowed values a message spells out. */
const LISTED_VALUES = 12;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function matchesPattern(text: string, source: string): boolean {
  return new RegExp(source, 'u').test(text);
}

function listValues(values: readonly (string | number)[]): string {
  const shown = values.slice(0, LISTED_VALUES).map((value) => JSON.stringify(value));
  const rest = values.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

function enumMiss(
  value: string | number,
  allowed: readonly (string | number)[],
  notes?: Readonly<Record<string, string>>,
  emptyReason?: string,
): string {
  const note = typeof value === 'string' && notes && Object.hasOwn(notes, value) ? `; ${notes[value]}` : '';
  if (allowed.length === 0) return emptyReason ? `must be left out: ${emptyReason}${note}` : `must be left out: no value is allowed${note}`;
  const names = allowed.filter((item): item is string => typeof item === 'string');
  const hint = typeof value === 'string' && !note ? didYouMean(value, names) : '';
  return `must be one of ${listValues(allowed)}${note}${hint}`;
}

function checkString(value: string, rule: StringRule, pointer: string, out: Violation[]): void {
  const length = characterCount(value);
  if (rule.minLength !== undefined && length < rule.minLength) {
    out.push(violation(pointer, rule.minLength === 1 ? 'must not be empty' : `must be at least ${rule.minLength} characters`));
    // An empty value would also fail the pattern; one message says it better.
    return;
  }
  if (rule.maxLength !== undefined && length > rule.maxLength) {
    out.push(violation(pointer, `must be at most ${rule.maxLength} characters (got ${length})`));
  }
  if (rule.pattern && !matchesPattern(value, rule.pattern.source)) {
    out.push(violation(pointer, `must be ${rule.pattern.meaning} (pattern ${rule.pattern.source})`));
  }
  if (rule.enum && !rule.enum.includes(value))
    out.push(violation(pointer, enumMiss(value, rule.enum, rule.enumNotes, rule.enumEmptyReason)));
  if (rule.semverRange && validRange(value) === null) {
    out.push(violation(pointer, 'must be a semver range or version, such as ">=1.2.0" or "1.2.3"'));
  }
}

function checkNumber(value: number, rule: NumberRule, pointer: string, out: Violation[]): void {
  if (rule.minimum !== undefined && value < rule.minimum) out.push(violation(pointer, `must be at least ${rule.minimum}`));
  if (rule.maximum !== undefined && value > rule.maximum) out.push(violation(pointer, `must be at most ${rule.maximum}`));
  if (rule.enum && !rule.enum.includes(value)) out.push(violation(pointer, enumMiss(value, rule.enum)));
}

function checkArray(value: unknown[], rule: ArrayRule, pointer: string, out: Violation[]): void {
  if (rule.maxItems !== undefined && value.length > rule.maxItems) {
    out.push(violation(pointer, `must have at most ${rule.maxItems} items (got ${value.length})`));
  }
  value.forEach((item, index) => checkValue(item, rule.items, childPointer(pointer, index), out));
}

function checkObject(value: Record<string, unknown>, rule: ObjectRule, pointer: string, out: Violation[]): void {
  const known = Object.keys(rule.properties);
  for (const [key, member] of Object.entries(value)) {
    const memberRule = Object.hasOwn(rule.properties, key) ? rule.properties[key] : undefined;
    if (memberRule) checkValue(member, memberRule, childPointer(pointer, key), out);
    else out.push(violation(childPointer(pointer, key), `is not a known field${didYouMean(key, known)}`));
  }
  for (const key of rule.required) {
    if (!Object.hasOwn(value, key)) out.push(violation(childPointer(pointer, key), 'is required'));
  }
}

function checkMap(value: Record<string, unknown>, rule: MapRule, pointer: string, out: Violation[]): void {
  const count = Object.keys(value).length;
  if (rule.maxProperties !== undefined && count > rule.maxProperties) {
    out.push(violation(pointer, `must have at most ${rule.maxProperties} entries (got ${count})`));
  }
  for (const [key, member] of Object.entries(value)) {
    const memberPointer = childPointer(pointer, key);
    if (matchesPattern(key, rule.keyPattern.source)) checkValue(member, rule.values, memberPointer, out);
    else out.push(violation(memberPointer, `key must be ${rule.keyPattern.meaning} (pattern ${rule.keyPattern.source})`));
  }
}

function typeMismatch(value: unknown, rule: ValueRule): string | undefined {
  switch (rule.type) {
    case 'string':
      if (typeof value === 'string') return undefined;
      if (typeof value === 'number' || typeof value === 'boolean') {
        return `must be a string; quote it (it was read as the ${typeof value} ${String(value)})`;
      }
      return `must be a string (got ${describeType(value)})`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be a finite number (got ${describeType(value)})`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false (got ${describeType(value)})`;
    case 'array':
      return Array.isArray(value) ? undefined : `must be an array (got ${describeType(value)})`;
    case 'object':
    case 'map':
      return isPlainObject(value) ? undefined : `must be an object (got ${describeType(value)})`;
  }
}

/** Appends to `out` every way `value` breaks `rule`; a value of the wrong type gets one violation. */
export function checkValue(value: unknown, rule: ValueRule, pointer: string, out: Violation[]): void {
  const mismatch = typeMismatch(value, rule);
  if (mismatch !== undefined) {
    out.push(violation(pointer, mismatch));
    return;
  }
  switch (rule.type) {
    case 'string':
      return checkString(value as string, rule, pointer, out);
    case 'number':
      return checkNumber(value as number, rule, pointer, out);
    case 'boolean':
      return;
    case 'array':
      return checkArray(value as unknown[], rule, pointer, out);
    case 'object':
      return checkObject(value as Record<string, unknown>, rule, pointer, out);
    case 'map':
      return checkMap(value as Record<string, unknown>, rule, pointer, out);
  }
}
