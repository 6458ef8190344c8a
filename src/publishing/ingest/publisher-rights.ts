import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { DomainError, forbidden } from '../../common/errors/domain-error';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { TokensRepository } from '../../accounts/tokens/tokens.repository';
import type { Publisher } from './ingest.types';

/**
 * Whether a publisher may still act, checked inside the transaction that writes, with the token
 * and ownership rows locked until it ends: a token revoked (or its owner disabled) or a plugin
 * transferred while a push or yank was under way does not take effect.
 */
@Injectable()
export class PublisherRights {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly plugins: PluginsRepository,
    private readonly clock: Clock,
  ) {}

  /** `pluginId` null for a claim, where there is no owner yet. */
  async assertStillAllowed(publisher: Publisher, pluginId: string | null, manager: EntityManager): Promise<void> {
    if (publisher.tokenId && !(await this.tokens.isUsableLocked(publisher.tokenId, this.clock.now(), manager))) {
      throw new DomainError(
        'unauthorized',
        'token-unusable',
        'the publisher token was revoked or expired (or its owner disabled) while the request was under way',
      );
    }
    if (pluginId !== null && !(await this.plugins.isOwnerLocked(pluginId, publisher.userId, manager))) {
      throw forbidden('the token owner stopped owning this plugin while the request was under way');
    }
  }
}
