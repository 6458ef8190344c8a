import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';

/**
 * Whether every percent-escape of a path decodes to UTF-8 text without NUL. Routing, route
 * metrics and the 405 table all decode the path again later; a path that cannot be decoded must
 * never get that far (a URIError thrown from a response hook once ended the process).
 */
export function isDecodablePath(path: string): boolean {
  try {
    return !decodeURIComponent(path).includes('\0');
  } catch {
    return false;
  }
}

/** Refuses, before routing, a path with a malformed or overlong percent-escape or a NUL: 400 problem+json. */
export function decodablePathsOnly(request: Request, _response: Response, next: NextFunction): void {
  if (isDecodablePath(request.path)) return next();
  next(
    new DomainError(
      'bad-request',
      'malformed-path',
      'the path has a malformed percent-escape (or an encoded NUL): escapes must spell UTF-8, such as %C3%A9 for é',
    ),
  );
}
