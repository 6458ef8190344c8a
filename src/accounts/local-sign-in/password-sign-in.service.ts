import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { safeNext } from '../../lib/net/safe-next';
import { needsRehash } from '../../lib/password/password-hash';
import { SettingsService } from '../../platform/settings/settings.service';
import { LOCAL_INSTANCE, UsersRepository } from '../../platform/users/users.repository';
import type { SignInMethodsDto } from './dto/password.dto';
import type { PasswordSignInDto } from './dto/password-sign-in.dto';
import { type HashSlot, PasswordHasher } from './password-hasher';
import { PasswordsRepository } from './passwords.repository';
import { requireSameOrigin } from './same-origin';
import type { SignedIn, SignInReply, SignInRequest } from './sign-in-http';
import { SessionIssuer } from './session-issuer';
import { SignInAttempts } from './sign-in-attempts';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** The refusals a no-script form post is sent back to /sign-in with (the page says each). */
const FORM_FAILURES = new Set(['sign-in-failed', 'rate-limited', 'password-sign-in-off', 'password-hashing-busy']);

/** The one answer every failed password sign-in gets: unknown login, wrong password, locked or disabled account alike. */
export const signInFailed = () => new DomainError('unauthorized', 'sign-in-failed', 'the login or the password is wrong');

export const passwordSignInOff = () =>
  new DomainError(
    'not-found',
    'password-sign-in-off',
    'password sign-in is turned off on this registry; sign in with a passkey or a sign-in link',
  );

/**
 * Password sign-in for local accounts. Every failure costs the same: one scrypt verification
 * (against a dummy hash when the login is unknown or has no password), one look at the
 * account's failure counter, one audit entry, and the same 401.
 */
@Injectable()
export class PasswordSignInService {
  private dummyHash: Promise<string> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordsRepository,
    private readonly settings: SettingsService,
    private readonly attempts: SignInAttempts,
    private readonly sessions: SessionIssuer,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * The hash an unknown login's password is checked against (so it costs what a known one
   * does), made on first use rather than at boot: a 32 MiB scrypt per start is a cost every
   * start (and every test app) would pay. A failure is not kept: the next sign-in tries again.
   */
  private dummy(slot: HashSlot): Promise<string> {
    this.dummyHash ??= slot.hash(randomBytes(24).toString('base64url')).catch((error: unknown) => {
      this.dummyHash = null;
      throw error;
    });
    return this.dummyHash;
  }

  async methods(): Promise<SignInMethodsDto> {
    return { password: (await this.settings.get('signin.password_enabled')) === 1, passkey: true };
  }

  /**
   * `POST /api/auth/sign-in/password`: JSON gets `{token, user}` and the cookie; an HTML form
   * (no script) gets the cookie and a 303 to `next`, or a 303 back to /sign-in saying what failed.
   */
  async signIn(body: PasswordSignInDto, request: SignInRequest): Promise<SignInReply> {
    if (!request.formPost) return { kind: 'json', ...(await this.attempt(body.login, body.password, request.ip)) };
    requireSameOrigin(request, this.config.baseUrl);
    try {
      const { cookie } = await this.attempt(body.login, body.password, request.ip);
      return { kind: 'redirect', location: safeNext(body.next), cookie };
    } catch (error) {
      if (!(error instanceof DomainError) || !FORM_FAILURES.has(error.code)) throw error;
      // Never the login: an address lands in access logs and browser history, and people type passwords into login fields.
      const back = new URLSearchParams({ error: error.code });
      if (body.next) back.set('next', safeNext(body.next));
      const retryAfter = typeof error.extensions.retryAfter === 'number' ? error.extensions.retryAfter : undefined;
      return { kind: 'redirect', location: `/sign-in?${back.toString()}`, ...(retryAfter !== undefined ? { retryAfter } : {}) };
    }
  }

  async attempt(login: string, password: string, ip: string | null): Promise<SignedIn> {
    if ((await this.settings.get('signin.password_enabled')) !== 1) throw passwordSignInOff();
    await this.attempts.checkAddress(ip);
    // The slot is taken before the attempt is counted: a 503 (too many hashes at once) counts nothing.
    return this.hasher.withSlot((slot) => this.verified(login, password, ip, slot));
  }

  private async verified(login: string, password: string, ip: string | null, slot: HashSlot): Promise<SignedIn> {
    const [user] = await this.users.findByLogin(login, LOCAL_INSTANCE);
    // The same queries whether the login exists or not.
    const hash = await this.passwords.hashOf(user?.id ?? NIL_UUID);
    // People type passwords into login fields: an unknown login is kept only as a digest prefix.
    const unknown = user ? null : loginDigest(login);
    const entry = await this.attempts.enter(ip, user ? user.id : `login:${unknown}`);
    const matches = await slot.verify(password, hash ?? (await this.dummy(slot)));
    const reason = !user
      ? 'unknown-login'
      : !hash
        ? 'no-password'
        : entry.locked
          ? 'locked'
          : !matches
            ? 'wrong-password'
            : user.disabledAt
              ? 'disabled'
              : null;
    if (reason || !user || !hash) {
      await this.sessions.failed('password', ip, user ? { login: user.login, reason, userId: user.id } : { loginSha256: unknown, reason });
      throw signInFailed();
    }
    await entry.succeeded();
    if (needsRehash(hash)) await this.passwords.store(user.id, await slot.hash(password));
    return this.sessions.signIn(user, 'password', ip);
  }
}

/** The first 16 hex digits of the SHA-256 of a login as typed (lower-cased): enough to see repeats, not what was typed. */
export function loginDigest(login: string): string {
  return createHash('sha256').update(login.toLowerCase()).digest('hex').slice(0, 16);
}
