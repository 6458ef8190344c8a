import type { ValidationError } from 'class-validator';
import { badRequest, type ProblemFieldError } from './domain-error';

function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Flattens class-validator's tree into one `{path, message}` per violated constraint. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ProblemFieldError[] {
  const out: ProblemFieldError[] = [];
  for (const error of errors) {
    const path = `${parent}/${pointerSegment(String(error.property))}`;
    for (const message of Object.values(error.constraints ?? {})) out.push({ path, message });
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, path));
  }
  return out;
}

export function requestValidationError(errors: ValidationError[]) {
  const fieldErrors = flattenValidationErrors(errors);
  return badRequest('validation-failed', `the request has ${fieldErrors.length} invalid field(s)`, fieldErrors);
}
