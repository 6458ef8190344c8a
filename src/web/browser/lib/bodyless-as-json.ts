import type { Middleware } from 'openapi-fetch';

/**
 * The API's CSRF check takes a cookie session's change only as JSON, and a request without a
 * body has no content type at all: every such change (a vote, a verify, a key rotation) goes out as `{}`.
 */
export const bodylessAsJson: Middleware = {
  onRequest({ request }) {
    if (request.method === 'GET' || request.method === 'HEAD' || request.body !== null) return undefined;
    const headers = new Headers(request.headers);
    headers.set('Content-Type', 'application/json');
    return new Request(request, { body: '{}', headers });
  },
};
