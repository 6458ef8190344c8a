import type { NextFunction, Request, Response } from 'express';
import { deferBodyError, defersBodyErrors } from './deferred-body-error';
import { isFormBody } from './form-bodies';

/** A body-parser-shaped error, so the problem filter maps it like the parser's own. */
export class UnsupportedMediaTypeError extends Error {
  readonly status = 415;
  readonly expose = true;
  readonly type = 'unsupported.media.type';
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Every API body is JSON. A body sent as anything else would reach the validator as `{}` and come
 * back as a list of "is required" errors for fields the caller did send; one 415 that says what to
 * send is the helpful answer.
 */
export function jsonBodiesOnly(request: Request, _response: Response, next: NextFunction): void {
  if (hasBody(request) && !isJson(request.headers['content-type']) && !isFormBody(request)) {
    const error = new UnsupportedMediaTypeError('the request body must be JSON');
    if (defersBodyErrors(request.path)) deferBodyError(request, error);
    else {
      next(error);
      return;
    }
  }
  next();
}
