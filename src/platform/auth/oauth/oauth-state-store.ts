import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Clock, RandomSource } from '../../../common/clock';
import { sameSecret } from '../../../common/crypto/same-secret';
import { cookieValue } from '../auth-context';
import type { OAuthStatesRepository } from '../oauth-states.repository';
import { LocalSignInFailure } from './oauth-errors';

export const OAUTH_STATE_COOKIE = 'registry_oauth_state';
const STATE_TTL_MS = 600_000;

const digest = (state: string) => createHash('sha256').update(state).digest();

/**
 * passport-oauth2's state store, without server-side sessions: the state travels in the redirect
 * and in an HttpOnly cookie scoped to this instance's callback, and the callback must bring both.
 * The state is single-use: its SHA-256 is recorded when issued and deleted when the callback
 * consumes it, so replaying a callback (or a copied cookie) finds nothing to consume.
 */
export class CookieStateStore {
  constructor(
    private readonly instance: string,
    private readonly states: OAuthStatesRepository,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly cookiePath: string,
    private readonly secure: boolean,
  ) {}

  // passport picks the call shape by arity: keep exactly (req, meta, callback).
  store(req: Request, _meta: unknown, callback: (error: Error | null, state?: string) => void): void {
    const state = this.random.bytes(24).toString('base64url');
    const now = this.clock.now();
    this.states.issue(digest(state), this.instance, new Date(now.getTime() + STATE_TTL_MS), now).then(
      () => {
        (req.res as Response).cookie(OAUTH_STATE_COOKIE, state, {
          httpOnly: true,
          sameSite: 'lax',
          secure: this.secure,
          path: this.cookiePath,
          maxAge: STATE_TTL_MS,
        });
        callback(null, state);
      },
      (error: unknown) => callback(new LocalSignInFailure(error)),
    );
  }

  // passport picks the call shape by arity: keep exactly (req, provided, callback).
  verify(req: Request, provided: string, callback: (error: Error | null, ok: boolean, info?: { message: string }) => void): void {
    const expected = cookieValue(req, OAUTH_STATE_COOKIE);
    (req.res as Response).clearCookie(OAUTH_STATE_COOKIE, { path: this.cookiePath });
    if (!expected || typeof provided !== 'string' || !sameSecret(provided, expected)) {
      callback(null, false, { message: 'the sign-in state does not match; start again' });
      return;
    }
    this.states.consume(digest(provided), this.instance).then(
      (expiresAt) => {
        if (!expiresAt || expiresAt.getTime() <= this.clock.nowMs()) {
          callback(null, false, { message: 'this sign-in was already used or has expired; start again' });
          return;
        }
        callback(null, true);
      },
      (error: unknown) => callback(new LocalSignInFailure(error), false),
    );
  }
}
