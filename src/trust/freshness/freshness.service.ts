import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { OccasionalWarning } from '../../common/logging/occasional-warning';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { IntegrityService } from '../integrity/integrity.service';
import { SigningKeyDecryptionError } from '../integrity/key-encryption';
import { type FreshnessPlatform, freshnessPeriod, type FreshnessStatement } from '../../lib/freshness';
import { SignedStatements } from './signed-statements';

/** What a `latest` answer resolved to: the statement vouches for exactly this. */
export interface LatestChoice {
  slug: string;
  version: string;
  platform: FreshnessPlatform;
  assetSha256: string | null;
  /** The plugin's log position (`plugin.log_size`), read with the answer. */
  treeSize: number;
}

/**
 * Signed freshness for `latest` answers (docs/verifying-downloads.md#freshness): a statement with a
 * lifetime, so a client can refuse an answer frozen or rolled back by whoever stands between it and
 * the registry.
 *
 * Nothing is stored. A statement is a function of the answer, the plugin's log position and the
 * reissue period it falls in (lib/freshness `freshnessPeriod`), and Ed25519 signatures are
 * deterministic, so every instance asked in the same period serves the same bytes: no table for
 * instances to agree through, and an answer costs no write. A new release, a yank or an unyank
 * moves the plugin's log position, so its next answers carry a new statement at once.
 */
@Injectable()
export class FreshnessService {
  // Every `latest` answer would say it while the key is unusable: once a minute is enough.
  private readonly unsignable = new OccasionalWarning((message) => new Logger('Freshness').error(message));
  private readonly signed = new SignedStatements();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly integrity: IntegrityService,
    private readonly clock: Clock,
  ) {}

  /**
   * The statement for this answer, or null when this instance signs nothing (a mirror) or cannot
   * sign (its key does not decrypt: the catalogue still answers, as it does for publishing).
   */
  async statementFor(choice: LatestChoice): Promise<string | null> {
    if (this.config.mirrorOf) return null;
    const { issuedAt, expiresAt } = freshnessPeriod(this.clock.nowMs(), this.config.freshnessLifetimeSeconds);
    const statement: FreshnessStatement = {
      slug: choice.slug,
      version: choice.version,
      platform: choice.platform,
      asset_sha256: choice.assetSha256,
      issued_at: issuedAt,
      expires_at: expiresAt,
      tree_size: choice.treeSize,
    };
    try {
      return this.signed.get(await this.integrity.freshnessSigner(), statement);
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      this.unsignable.say(`latest answers go out without a freshness statement: ${error.message}`);
      return null;
    }
  }
}
