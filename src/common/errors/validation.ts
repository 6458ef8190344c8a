import { ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { itemCheckFor } from '../validation/satisfies';
import { badRequest, type ProblemFieldError } from './domain-error';

/** A JSON pointer segment (RFC 6901): `~` and `/` escaped. */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** How a message names its field: the pointer without its leading slash (`scopes/1`). */
function label(path: string): string {
  return path.slice(1);
}

/**
 * Constraints that say the value has the wrong type. When one fails, the other rules (lengths,
 * counts, patterns) cannot apply and are not reported: one message per field.
 */
const TYPE_CONSTRAINTS = new Set(['isString', 'isArray', 'isInt', 'isNumber', 'isBoolean', 'isObject', 'isDate']);

export const plural = (n: unknown, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;

/** Our wording for class-validator's built-in rules, from each rule's own arguments. */
const WORDING: Readonly<Record<string, (args: readonly unknown[]) => string>> = {
  isString: () => 'must be a string',
  isArray: () => 'must be an array',
  isInt: () => 'must be an integer',
  isNumber: () => 'must be a number',
  isBoolean: () => 'must be true or false',
  isObject: () => 'must be an object',
  isIn: ([values]) => `must be one of ${(values as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
  arrayMinSize: ([n]) => `must have at least ${plural(n, 'element')}`,
  arrayMaxSize: ([n]) => `must have at most ${plural(n, 'element')}`,
  isLength: ([min, max]) =>
    max === undefined ? `must be at least ${plural(min, 'character')} long` : `must be ${String(min)} to ${plural(max, 'character')} long`,
  minLength: ([n]) => `must be at least ${plural(n, 'character')} long`,
  maxLength: ([n]) => `must be at most ${plural(n, 'character')} long`,
  min: ([n]) => `must be at least ${String(n)}`,
  max: ([n]) => `must be at most ${String(n)}`,
  whitelistValidation: () => 'is not a known field',
};

/** The arguments a rule was declared with on the DTO (`@ArrayMinSize(1)` → [1]). */
function constraintArguments(target: object | undefined, property: string, constraint: string): readonly unknown[] {
  if (!target) return [];
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false);
  return metadata.find((m) => m.propertyName === property && m.name === constraint)?.constraints ?? [];
}

/** One rule's message, as "<field>: <rule>"; a message already naming its property keeps its rule. */
function message(error: ValidationError, path: string, constraint: string, original: string): string {
  const wording = WORDING[constraint];
  if (wording) return `${label(path)}: ${wording(constraintArguments(error.target, error.property, constraint))}`;
  const own = `${error.property}: `;
  if (original.startsWith(own)) return `${label(path)}: ${original.slice(own.length)}`;
  const prose = `${error.property} `;
  return `${label(path)}: ${original.startsWith(prose) ? original.slice(prose.length) : original}`;
}

function fieldErrors(error: ValidationError, path: string): ProblemFieldError[] {
  const constraints = Object.entries(error.constraints ?? {});
  if (constraints.length === 0) return [];
  if (error.value === undefined && !('whitelistValidation' in (error.constraints ?? {}))) {
    return [{ path, message: `${label(path)}: is required` }];
  }
  const typeFailure = constraints.find(([name]) => TYPE_CONSTRAINTS.has(name));
  if (typeFailure) return [{ path, message: message(error, path, typeFailure[0], typeFailure[1]) }];
  return constraints.flatMap(([name, original]) => {
    const check = itemCheckFor(name);
    if (check && Array.isArray(error.value)) {
      // A rule on each item is reported at each bad item's own pointer, never on the joined array.
      return (error.value as unknown[]).flatMap((item, index) => {
        const problem = check(item);
        return problem === null ? [] : [{ path: `${path}/${index}`, message: `${label(path)}/${index}: ${problem}` }];
      });
    }
    return [{ path, message: message(error, path, name, original) }];
  });
}

/**
 * Flattens class-validator's tree into field errors a person can act on: one message per field
 * (a missing field is "is required" once; a wrong type is said once, without the length and count
 * rules that cannot apply), each bad array item at its own pointer, in our own wording.
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ProblemFieldError[] {
  const out: ProblemFieldError[] = [];
  for (const error of errors) {
    const path = `${parent}/${pointerSegment(String(error.property))}`;
    out.push(...fieldErrors(error, path));
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, path));
  }
  return out;
}

/**
 * How every request DTO is validated: unknown fields refused, and the target and value kept on
 * each error so the flattener can read each rule's declared arguments (its limits).
 */
export const REQUEST_VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: true, value: true },
} as const;

export function requestValidationError(errors: ValidationError[]) {
  const fieldErrors = flattenValidationErrors(errors);
  return badRequest('validation-failed', `the request has ${fieldErrors.length} invalid field(s)`, fieldErrors);
}

/** The pipe every DTO of a request passes through (bodies, queries, parameters): 400 with every field named. */
export function requestValidationPipe(): ValidationPipe {
  return new ValidationPipe({ ...REQUEST_VALIDATOR_OPTIONS, transform: true, exceptionFactory: requestValidationError });
}
