import { Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import { type AuthContext, PUBLISHER_TOKEN_PREFIX } from '../../platform/auth/auth-context';
import { StepUp } from '../../platform/auth/step-up';
import { Clock, RandomSource } from '../../common/clock';
import { badRequest, conflict, notFound, unauthorized } from '../../common/errors/domain-error';
import type { CreatedTokenDto, CreateTokenDto, TokenListDto } from './dto/token.dto';
import type { PublisherTokenEntity } from './entities/publisher-token.entity';
import type { PublisherTokenContext } from './publisher-token-context';
import { generatePublisherToken, hashPublisherToken, PUBLISHER_TOKEN_PATTERN, TOKEN_DISPLAY_PREFIX_LENGTH } from './token-format';
import { tokenStatus, toTokenListItem, toTokenRow } from './tokens.mapper';
import { TokensRepository } from './tokens.repository';

export const MAX_ACTIVE_TOKENS_PER_USER = 50;
/** last_used_at is refreshed at most this often, so a busy CI does not write on every push. */
const TOUCH_INTERVAL_MS = 60_000;

@Injectable()
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly stepUp: StepUp,
  ) {}

  /** A token publishes as its owner for as long as it lives: a session must have proved itself recently (step-up) to make one. */
  async create(auth: AuthContext, input: CreateTokenDto, ip: string | null): Promise<CreatedTokenDto> {
    this.stepUp.require(auth);
    const now = this.clock.now();
    const expiresAt = input.expiresAt === null || input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() <= now.getTime()) {
      throw badRequest('validation-failed', 'expiresAt is in the past', [
        { path: '/expiresAt', message: 'expiresAt: must be in the future' },
      ]);
    }
    const plaintext = generatePublisherToken(this.random);
    const scopes = [...new Set(input.scopes)];
    const row = await this.tokens.withUserLocked(auth.user.id, async (manager) => {
      if ((await this.tokens.countActive(auth.user.id, now, manager)) >= MAX_ACTIVE_TOKENS_PER_USER) {
        throw conflict('token-limit-reached', `at most ${MAX_ACTIVE_TOKENS_PER_USER} active tokens per user; revoke one first`);
      }
      const token = await this.tokens.insert(
        {
          userId: auth.user.id,
          name: input.name,
          prefix: plaintext.slice(0, TOKEN_DISPLAY_PREFIX_LENGTH),
          tokenSha256: hashPublisherToken(plaintext),
          scopes,
          expiresAt,
        },
        manager,
      );
      await this.audit.record(
        {
          action: 'token.create',
          actor: { userId: auth.user.id, ip },
          details: { tokenId: token.id, name: token.name, scopes, prefix: token.prefix },
        },
        manager,
      );
      return token;
    });
    return { token: plaintext, row: toTokenRow(row) };
  }

  async list(auth: AuthContext): Promise<TokenListDto> {
    const nowMs = this.clock.nowMs();
    return { tokens: (await this.tokens.listForUser(auth.user.id)).map((t) => toTokenListItem(t, nowMs)) };
  }

  async revoke(auth: AuthContext, id: string, ip: string | null): Promise<void> {
    const token = /^[0-9a-f-]{36}$/i.test(id) ? await this.tokens.findForUser(id, auth.user.id) : null;
    if (!token) throw notFound('no such token');
    if (await this.tokens.revoke(token.id, this.clock.now())) {
      await this.audit.record({
        action: 'token.revoke',
        actor: { userId: auth.user.id, ip },
        details: { tokenId: token.id, name: token.name },
      });
    }
  }

  /**
   * The active token behind a bearer credential, with its owner: 401 for missing, malformed,
   * unknown, expired or revoked tokens, and for a disabled owner. Expiry is judged now.
   */
  async authenticate(bearer: string | null): Promise<PublisherTokenContext> {
    if (!bearer) throw unauthorized('a publisher token is required (Authorization: Bearer prt_...)');
    if (!bearer.startsWith(PUBLISHER_TOKEN_PREFIX) || !PUBLISHER_TOKEN_PATTERN.test(bearer)) {
      throw unauthorized('the publisher token is malformed');
    }
    const token = await this.tokens.findByHashWithUser(hashPublisherToken(bearer));
    const nowMs = this.clock.nowMs();
    if (!token?.user || tokenStatus(token, nowMs) !== 'active' || token.user.disabledAt) {
      throw unauthorized('the publisher token is unknown, expired or revoked');
    }
    this.touch(token, nowMs);
    return { kind: 'token', user: token.user, token };
  }

  private touch(token: PublisherTokenEntity, nowMs: number): void {
    if (token.lastUsedAt && nowMs - token.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return;
    // Bookkeeping only: a failed write must not fail the request that used the token.
    this.tokens.touch(token.id, new Date(nowMs)).catch(() => undefined);
  }
}
