import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { UsersRepository } from '../../platform/users/users.repository';
import { requireSameOrigin } from './same-origin';
import { SessionIssuer } from './session-issuer';
import { SignInAttempts } from './sign-in-attempts';
import type { SignedIn, SignInRedirect, SignInRequest } from './sign-in-http';
import { SignInLinksRepository } from './sign-in-links.repository';
import { linkTokenSha256 } from './sign-in-links';

const REFUSALS = {
  'already-used': () =>
    new DomainError(
      'gone',
      'sign-in-link-used',
      'this sign-in link was used already; each link signs in once. Ask the operator for a new one (registry users sign-in-link <login>)',
    ),
  expired: () =>
    new DomainError(
      'gone',
      'sign-in-link-expired',
      'this sign-in link has expired (links work for 15 minutes). Ask the operator for a new one (registry users sign-in-link <login>)',
    ),
  unknown: () =>
    new DomainError(
      'not-found',
      'sign-in-link-unknown',
      'this sign-in link is not known here (mistyped, or long expired). Ask the operator for a new one (registry users sign-in-link <login>)',
    ),
  disabled: () => new DomainError('gone', 'sign-in-link-expired', 'this sign-in link cannot be used: the account is disabled'),
} as const;

/** What a refused link's page is called by: `/sign-in/link?error=<reason>`. */
export type LinkRefusal = 'already-used' | 'expired' | 'unknown';

/** One-time sign-in links: used once, within their 15 minutes, by a user who is not disabled. */
@Injectable()
export class LinkSignInService {
  constructor(
    private readonly links: SignInLinksRepository,
    private readonly users: UsersRepository,
    private readonly attempts: SignInAttempts,
    private readonly sessions: SessionIssuer,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async use(token: string, ip: string | null): Promise<SignedIn> {
    // Counted as a failure before the link is looked up (parallel guesses cannot outrun the limit); handed back below on success.
    const entry = await this.attempts.enterAddress(ip);
    const outcome = await this.links.use(linkTokenSha256(token), this.clock.now());
    const user = outcome.outcome === 'used' ? await this.users.findById(outcome.userId) : null;
    if (outcome.outcome !== 'used' || !user || user.disabledAt) {
      const reason = outcome.outcome === 'used' ? 'disabled' : outcome.outcome;
      await this.sessions.failed('link', ip, { reason, ...(user ? { userId: user.id } : {}) });
      throw REFUSALS[reason]();
    }
    await entry.succeeded();
    await this.audit.record({ action: 'sign_in_link.use', actor: { userId: user.id, ip }, details: { login: user.login } });
    return this.sessions.signIn(user, 'link', ip);
  }

  /**
   * `POST /auth/link` (the button on the page the printed link opens; only from this site's own
   * pages): signed in, 303 to /account; refused, 303 to the page that says why.
   */
  async follow(token: string | undefined, request: SignInRequest): Promise<SignInRedirect> {
    requireSameOrigin(request, this.config.baseUrl);
    try {
      if (!token || token.length > 200) throw REFUSALS.unknown();
      return { location: '/account', cookie: (await this.use(token, request.ip)).cookie };
    } catch (error) {
      if (!(error instanceof DomainError) || !error.code.startsWith('sign-in-link-')) throw error;
      return { location: `/sign-in/link?error=${error.code.slice('sign-in-link-'.length)}` };
    }
  }
}
