import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock, RandomSource } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { forgeAdapter } from '../../platform/forges/adapters';
import type { CiIdentity } from '../../platform/forges/forge-adapter';
import type { TrustedTokenOrigin } from '../../accounts/tokens/entities/publisher-token.entity';
import { generatePublisherToken, hashPublisherToken, TOKEN_DISPLAY_PREFIX_LENGTH } from '../../accounts/tokens/token-format';
import { TokensRepository } from '../../accounts/tokens/tokens.repository';
import type { OidcTokenRequestDto, OidcTokenResultDto } from './dto/oidc-token.dto';
import { IdTokenVerifier } from './oidc/id-token-verifier';
import { invalidIdToken } from './oidc/oidc-error';
import { TrustedGrants } from './trusted-grants';
import { UsedOidcTokensRepository } from './used-oidc-tokens.repository';

export const TRUSTED_TOKEN_LIFETIME_MS = 15 * 60_000;

function describe(identity: CiIdentity): string {
  const parts = [`repository ${identity.repository} (id ${identity.repositoryId})`];
  if (identity.workflow) parts.push(`workflow ${identity.workflow}`);
  if (identity.ref) parts.push(`ref ${identity.ref}`);
  if (identity.environment) parts.push(`environment ${identity.environment}`);
  return parts.join(', ');
}

/**
 * `POST /api/publish/oidc/token`: a verified CI OIDC ID token that matches trusted (or pending)
 * publishers becomes a 15-minute publisher token for those plugins. Every refusal happens before
 * anything is written; the jti is remembered in the same transaction that stores the new token.
 */
@Injectable()
export class TokenExchangeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly verifier: IdTokenVerifier,
    private readonly grants: TrustedGrants,
    private readonly tokens: TokensRepository,
    private readonly usedTokens: UsedOidcTokensRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async exchange(input: OidcTokenRequestDto, ip: string | null): Promise<OidcTokenResultDto> {
    const verified = await this.verifier.verify(input.token);
    const adapter = forgeAdapter(verified.forge.type);
    const identity = adapter.ciIdentity(verified.claims);
    if (!identity) throw invalidIdToken(`the ID token does not name a repository the way ${adapter.label} CI tokens do`);
    const grant = await this.grants.grantFor(verified.forge.name, identity);
    if (!grant)
      throw new DomainError(
        'forbidden',
        'no-trusted-publisher',
        `no trusted publisher on this registry matches ${describe(identity)} on ${verified.forge.name}`,
      );

    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + TRUSTED_TOKEN_LIFETIME_MS);
    const plaintext = generatePublisherToken(this.random);
    const origin: TrustedTokenOrigin = {
      issuer: verified.issuer,
      forge: verified.forge.name,
      repository: identity.repository,
      repositoryId: identity.repositoryId,
      workflow: identity.workflow,
      ref: identity.ref,
      environment: identity.environment,
      subject: typeof verified.claims.sub === 'string' ? verified.claims.sub : null,
      pending: grant.pending,
    };
    const replayKey = createHash('sha256').update(`${verified.issuer}\n${verified.jti}`).digest('hex');
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.usedTokens.markUsed(replayKey, verified.usableUntil, now, manager))) {
        throw new DomainError(
          'unauthorized',
          'oidc-token-replayed',
          'this ID token was exchanged already; each one is good for a single exchange',
        );
      }
      const name = `trusted: ${verified.forge.name} ${identity.repository}`.slice(0, 100);
      const row = await this.tokens.insert(
        {
          userId: grant.userId,
          name,
          prefix: plaintext.slice(0, TOKEN_DISPLAY_PREFIX_LENGTH),
          tokenSha256: hashPublisherToken(plaintext),
          scopes: grant.scopes,
          expiresAt,
          trusted: origin,
        },
        manager,
      );
      await this.audit.record(
        {
          action: 'token.create',
          actor: { userId: grant.userId, ip },
          details: {
            tokenId: row.id,
            name,
            scopes: grant.scopes,
            prefix: row.prefix,
            trusted: { ...origin, trustedPublisherIds: grant.trustedPublisherIds },
          },
        },
        manager,
      );
    });
    return { token: plaintext, expiresAt: expiresAt.getTime(), scopes: grant.scopes };
  }
}
