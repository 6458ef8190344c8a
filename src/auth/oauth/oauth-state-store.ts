import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieValue } from '../auth-context';

export const OAUTH_STATE_COOKIE = 'registry_oauth_state';
const STATE_TTL_SECONDS = 600;

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * passport-oauth2's state store, without server-side sessions: the state travels in the redirect
 * and in an HttpOnly cookie scoped to this instance's callback; the callback must bring both.
 */
export class CookieStateStore {
  constructor(
    private readonly cookiePath: string,
    private readonly secure: boolean,
  ) {}

  store(req: Request, _meta: unknown, callback: (error: Error | null, state?: string) => void): void {
    const state = randomBytes(24).toString('base64url');
    (req.res as Response).cookie(OAUTH_STATE_COOKIE, state, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: this.cookiePath,
      maxAge: STATE_TTL_SECONDS * 1000,
    });
    callback(null, state);
  }

  verify(req: Request, provided: string, callback: (error: Error | null, ok: boolean, info?: { message: string }) => void): void {
    const expected = cookieValue(req, OAUTH_STATE_COOKIE);
    (req.res as Response).clearCookie(OAUTH_STATE_COOKIE, { path: this.cookiePath });
    if (!expected || typeof provided !== 'string' || !sameString(expected, provided)) {
      callback(null, false, { message: 'the sign-in state does not match; start again' });
      return;
    }
    callback(null, true);
  }
}
