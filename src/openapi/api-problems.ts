import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ProblemDto } from './problem.dto';

/**
 * The 429 of every public GET/HEAD: the per-address read limit (`ratelimit.public_read_per_min`).
 * For public reads whose handler has no refusal of its own to document.
 */
export function ApiReadLimited(): MethodDecorator {
  return applyDecorators(
    ApiTooManyRequestsResponse({ type: ProblemDto, description: 'Over the public read limit of the client address; Retry-After says when to try again' }),
  );
}

/**
 * The 400 any operation answers to a request body that is not valid JSON (the body is parsed
 * before routing, whatever the method). For operations exempt from rate limits (health probes)
 * that have no other refusal to document.
 */
export function ApiMalformedBody(): MethodDecorator {
  return applyDecorators(ApiBadRequestResponse({ type: ProblemDto, description: 'A request body that is not valid JSON' }));
}
