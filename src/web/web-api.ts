import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { INTERNAL_CALL_HEADER, InternalCalls } from '../common/http/internal-calls';
import { createRegistryClient, type RegistryClient } from '../client/registry-client';
import { currentRequestId } from '../common/logging/request-context';

/** Request headers a page passes on to the API: who the visitor is and which language they read. */
const FORWARDED = ['cookie', 'accept-language'] as const;

/** The address the page request itself arrived on: this very instance, surely listening. */
export function ownAddress(request: Request): string {
  const socket = request.socket;
  const host = socket.localAddress ?? '127.0.0.1';
  const bare = host.startsWith('::ffff:') ? host.slice(7) : host;
  const shown = bare.includes(':') ? `[${bare}]` : bare;
  return `http://${shown}:${socket.localPort}`;
}

/**
 * The typed API client the pages render from: only the public API, as any other client sees it,
 * on behalf of the visitor (their cookie and language), marked as this instance's own call.
 * The calls carry the page request's id (X-Request-Id), so their access lines (at debug, being
 * internal) and anything they log read as part of the page view.
 */
@Injectable()
export class WebApi {
  constructor(private readonly internalCalls: InternalCalls) {}

  forRequest(request: Request): RegistryClient {
    const headers: Record<string, string> = { [INTERNAL_CALL_HEADER]: this.internalCalls.headerValue() };
    const pageRequestId = currentRequestId() ?? request.res?.getHeader('x-request-id');
    if (typeof pageRequestId === 'string') headers['x-request-id'] = pageRequestId;
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return createRegistryClient(ownAddress(request), { headers });
  }
}
