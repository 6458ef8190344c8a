import { type NextFunction, type Request, type RequestHandler, type Response, urlencoded } from 'express';

/**
 * The few routes that also take an HTML form post (`application/x-www-form-urlencoded`), so a page
 * works without script: the password sign-in, and the button that uses a one-time sign-in link. Every other API body is JSON (json-only.ts).
 */
export const FORM_BODY_PATHS: readonly string[] = ['/api/auth/sign-in/password', '/auth/link'];

const FORM_BODY_LIMIT_BYTES = 8 * 1024;

function formType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** Whether the request is a form post to a route that takes one. */
export function isFormBody(request: Pick<Request, 'path' | 'method' | 'headers'>): boolean {
  return request.method === 'POST' && FORM_BODY_PATHS.includes(request.path) && formType(request.headers['content-type']);
}

/** Parses form posts on those routes (flat fields, 8 KiB at most); anything else passes untouched. */
export function formBodyParser(): RequestHandler {
  const parse = urlencoded({ extended: false, limit: FORM_BODY_LIMIT_BYTES, parameterLimit: 20 });
  return (req: Request, res: Response, next: NextFunction) => (isFormBody(req) ? parse(req, res, next) : next());
}
