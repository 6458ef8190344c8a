import { applyDecorators } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBadRequestResponse, ApiGatewayTimeoutResponse, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ProblemDto } from './problem.dto';

/**
 * The 429 of every public GET/HEAD: the per-address read limit (`ratelimit.public_read_per_min`).
 * For public reads whose handler has no refusal of its own to document.
 */
export function ApiReadLimited(): MethodDecorator {
  return applyDecorators(
    ApiTooManyRequestsResponse({
      type: ProblemDto,
      description: 'Over the public read limit of the client address; Retry-After says when to try again',
    }),
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

/**
 * The transparency-log reads a mirror (MIRROR_OF) passes on to its upstream: upstream failing
 * (upstream-log-failed) or not answering in time (upstream-log-timeout). Upstream's own 4xx are
 * passed on as they are; each route documents those.
 */
export function ApiUpstreamLog(): MethodDecorator {
  return applyDecorators(
    ApiBadGatewayResponse({
      type: ProblemDto,
      description: "On a mirror: upstream's log could not be read (refused, a server error, an oversized answer): upstream-log-failed",
    }),
    ApiGatewayTimeoutResponse({
      type: ProblemDto,
      description: "On a mirror: upstream's log did not answer within MIRROR_LOG_TIMEOUT_MS: upstream-log-timeout",
    }),
  );
}
