import { Injectable, type PipeTransform } from '@nestjs/common';
import { badRequest } from '../errors/domain-error';
import { pointerSegment } from '../errors/validation';

/**
 * For `@Query()` on a route that takes no query parameters: any parameter is refused with the
 * 400 a DTO route gives an unknown field (`validation-failed`, each one named), so a route
 * answered from the response cache cannot be made to store one entry per made-up query string.
 */
@Injectable()
export class NoQueryPipe implements PipeTransform<unknown, Record<string, never>> {
  transform(value: unknown): Record<string, never> {
    const names = value && typeof value === 'object' ? Object.keys(value) : [];
    if (names.length) {
      const errors = names.map((name) => ({ path: `/${pointerSegment(name)}`, message: `${name}: is not a known field` }));
      throw badRequest('validation-failed', `the request has ${errors.length} invalid field(s)`, errors);
    }
    return {};
  }
}
