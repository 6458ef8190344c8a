import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import type { AuthContext, SessionAuthContext } from './auth-context';
import { SessionsRepository } from './sessions.repository';

/** How long a sign-in or a step-up lets a session change how its account signs in. */
export const STEP_UP_WINDOW_MS = 10 * 60_000;

export const stepUpRequired = () =>
  new DomainError(
    'forbidden',
    'step-up-required',
    'this changes how your account signs in, so confirm it is you first: POST /api/auth/me/step-up with a passkey (options from POST /api/auth/me/step-up/options) or your current password (currentPassword), or sign in again; either lets this session change credentials for 10 minutes',
  );

/**
 * The one rule every credential change passes (password set or removed, passkey added or removed,
 * publisher token created): the session proved who holds it in the last 10 minutes, by signing
 * in or by a step-up (a passkey assertion or the current password). A stolen session cookie is
 * then not enough to lock its owner out or to mint lasting credentials.
 */
@Injectable()
export class StepUp {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  /** Whether the caller's session proved itself within the window (a publisher token never has). */
  isFresh(auth: AuthContext): boolean {
    return auth.kind === 'session' && auth.verifiedAt !== undefined && this.clock.nowMs() - auth.verifiedAt.getTime() < STEP_UP_WINDOW_MS;
  }

  /** Throws step-up-required (403) unless the session proved itself within the window. */
  require(auth: AuthContext): void {
    if (!this.isFresh(auth)) throw stepUpRequired();
  }

  /** The holder just proved it was them (a passkey or the current password): the window starts again. */
  async verified(auth: SessionAuthContext): Promise<void> {
    const now = this.clock.now();
    await this.sessions.markVerified(auth.sessionId, now);
    auth.verifiedAt = now;
  }
}
