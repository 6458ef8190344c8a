import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The id of the request whose work is running now, if any: every log line written for it carries it. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The client's `X-Request-Id` when it is a sane token, else a new UUID. */
export function requestIdFor(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Ids given to requests before Express saw them (the catalogue lane), for what it hands over. */
const givenAhead = new WeakMap<IncomingMessage, string>();

/** The request keeps this id when it goes on to Express. */
export function keepRequestId(request: IncomingMessage, requestId: string): void {
  givenAhead.set(request, requestId);
}

/** Runs `work` as part of the request with this id (for what answers requests ahead of Express). */
export function runInRequestContext<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/**
 * Gives each request its id (the client's `X-Request-Id` when sane, else a new UUID), echoes it,
 * and runs the rest of the request inside that context, so log lines written by any service
 * while serving it can say which request they belong to.
 */
export function requestContext(request: Request, response: Response, next: NextFunction): void {
  const requestId = givenAhead.get(request) ?? requestIdFor(request.headers);
  response.setHeader('X-Request-Id', requestId);
  storage.run({ requestId }, next);
}
