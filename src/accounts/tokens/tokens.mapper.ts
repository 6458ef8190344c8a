import type { TokenListItemDto, TokenRowDto } from './dto/token.dto';
import type { PublisherTokenEntity } from './entities/publisher-token.entity';

export type TokenStatus = 'active' | 'expired' | 'revoked';

export function tokenStatus(token: PublisherTokenEntity, nowMs: number): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= nowMs) return 'expired';
  return 'active';
}

export function toTokenRow(token: PublisherTokenEntity): TokenRowDto {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: [...token.scopes],
    expiresAt: token.expiresAt ? token.expiresAt.getTime() : null,
    createdAt: token.createdAt.getTime(),
  };
}

export function toTokenListItem(token: PublisherTokenEntity, nowMs: number): TokenListItemDto {
  return { ...toTokenRow(token), status: tokenStatus(token, nowMs), lastUsedAt: token.lastUsedAt ? token.lastUsedAt.getTime() : null };
}
