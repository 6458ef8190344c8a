import { Injectable, type PipeTransform } from '@nestjs/common';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../lib/scopes/scopes';
import { badRequest } from '../errors/domain-error';

/**
 * A `:slug` path parameter that could name a plugin: checked before any work, so a request for a
 * slug that can never exist is a plain 400 and nothing downstream (audit rows included) sees it.
 */
@Injectable()
export class SlugPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || value.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(value)) {
      throw badRequest('invalid-slug', 'the path does not name a possible plugin slug', [
        { path: '/slug', message: `slug: must match ${SLUG_PATTERN.source} and be at most ${SLUG_MAX_LENGTH} characters` },
      ]);
    }
    return value;
  }
}
