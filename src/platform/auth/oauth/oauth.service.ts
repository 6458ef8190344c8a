import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Passport } from 'passport';
import { Clock, RandomSource } from '../../../common/clock';
import { type PolicyAgents, policyAgents } from '../../../common/fetch';
import { sealProviderToken } from '../../users/provider-token';
import { DomainError, notFound } from '../../../common/errors/domain-error';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.types';
import { forgeAdapter } from '../../forges/adapters';
import { ForgeRegistry } from '../../forges/forge-registry';
import type { UserEntity } from '../../users/entities/user.entity';
import { UsersRepository } from '../../users/users.repository';
import { toUserDto } from '../../users/users.mapper';
import { SESSION_COOKIE, SessionTokens, sessionCookieOptions } from '../session-tokens';
import { OAuthStatesRepository } from '../oauth-states.repository';
import { LocalSignInFailure, signInFailure } from './oauth-errors';
import { CookieStateStore } from './oauth-state-store';
import { strategyFor } from './strategies';

/** Provider sign-in: one passport strategy per live forge instance with OAuth credentials. */
@Injectable()
export class OAuthService {
  private readonly passport = new Passport();
  /** Each built strategy's instance and a SHA-256 of the settings it was built from (no secret kept in clear twice). */
  private readonly built = new Map<string, string>();
  private readonly logger = new Logger('OAuth');
  /**
   * Token exchanges and profile reads connect only where the fetch policy allows
   * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch).
   */
  private readonly agents: PolicyAgents;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly users: UsersRepository,
    private readonly sessions: SessionTokens,
    private readonly states: OAuthStatesRepository,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {
    this.agents = policyAgents({ allowHosts: config.fetchAllowHosts });
  }

  /**
   * The strategy for a live instance with OAuth credentials, built (or rebuilt, when its
   * credentials or URLs changed) on first use; false when the instance has none now. Instances an
   * admin adds or removes take effect here without a restart.
   */
  private strategyFor(instance: string): boolean {
    const forge = this.forges.signInCapable().find((f) => f.name === instance);
    if (!forge) {
      if (this.built.delete(instance)) this.passport.unuse(instance);
      return false;
    }
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([forge.type, forge.webUrl, forge.apiUrl, forge.clientId, forge.clientSecret]))
      .digest('hex');
    if (this.built.get(instance) === fingerprint) return true;
    const callbackPath = `/auth/${forge.name}/callback`;
    const strategy = strategyFor(
      forge,
      `${this.config.baseUrl}${callbackPath}`,
      new CookieStateStore(forge.name, this.states, this.clock, this.random, callbackPath, this.config.baseUrl.startsWith('https:')),
      (accessToken, profile, done) => {
        this.users
          .upsertFromProvider({
            instance: forge.name,
            providerUserId: profile.id,
            login: profile.login,
            email: profile.email,
            avatarUrl: profile.avatarUrl,
            providerTokenSealed: sealProviderToken(this.config.keyEncryptionKey, forge.name, profile.id, accessToken),
          })
          .then(
            (user) => done(null, user),
            (error: unknown) => done(new LocalSignInFailure(error)),
          );
      },
      this.agents,
    );
    this.passport.use(forge.name, strategy);
    this.built.set(instance, fingerprint);
    return true;
  }

  private async run(instance: string, request: Request, response: Response, scope?: string[]): Promise<UserEntity | null> {
    // One primary-key lookup: an instance added or removed on another server counts here at once.
    await this.forges.refresh();
    if (!this.strategyFor(instance)) throw notFound(`no sign-in is configured for "${instance}"`);
    return new Promise((resolve, reject) => {
      response.once('finish', () => resolve(null));
      this.passport.authenticate(
        instance,
        { session: false, ...(scope ? { scope } : {}) },
        (error: unknown, user: UserEntity | false, info?: { message?: string }) => {
          if (error) return reject(signInFailure(instance, error, (line) => this.logger.warn(line)));
          if (!user) {
            return reject(new DomainError('unauthorized', 'oauth-refused', info?.message ?? 'the sign-in was refused'));
          }
          resolve(user);
        },
      )(request, response, (error: unknown) => reject(error));
    });
  }

  /**
   * Redirects to the forge's authorization page. `access: 'hooks'` also asks for the scope that
   * lets the registry install a release webhook for the user (`POST /api/submit/oauth`); a plain
   * sign-in asks for the narrowest read-only grant.
   */
  async login(instance: string, access: 'hooks' | undefined, request: Request, response: Response): Promise<void> {
    await this.forges.refresh();
    const forge = this.forges.signInCapable().find((f) => f.name === instance);
    const endpoints = forge ? forgeAdapter(forge.type).oauthEndpoints(forge) : null;
    await this.run(instance, request, response, access === 'hooks' && endpoints ? [...endpoints.scope, ...endpoints.hookScope] : undefined);
  }

  /** Finishes the dance: sets the session cookie and goes home, or answers `{token, user}` with `?format=json`. */
  async callback(instance: string, request: Request, response: Response): Promise<void> {
    const user = await this.run(instance, request, response);
    if (!user) return;
    const session = await this.sessions.issue(user.id);
    response.cookie(SESSION_COOKIE, session.token, sessionCookieOptions(this.config.baseUrl));
    response.setHeader('Cache-Control', 'no-store');
    if (request.query.format === 'json') {
      response.status(200).json({ token: session.token, user: toUserDto(user) });
    } else {
      response.redirect(302, '/');
    }
  }
}
