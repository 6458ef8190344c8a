import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { OccasionalWarning } from '../common/logging/occasional-warning';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { IntegrityService } from '../integrity/integrity.service';
import { SigningKeyDecryptionError } from '../integrity/key-encryption';
import { type FreshnessPlatform, freshnessPlatformKey, type FreshnessStatement, rfc3339Seconds } from '../lib/freshness';
import { type FreshnessRow, FreshnessRepository } from './freshness.repository';

/** What a `latest` answer resolved to: the statement vouches for exactly this. */
export interface LatestChoice {
  slug: string;
  version: string;
  platform: FreshnessPlatform;
  assetSha256: string | null;
}

/**
 * Signed freshness for `latest` answers (issue 27): a statement with a lifetime, re-signed once it
 * is half that old or when the answer changes (a new release, a yank), so a client can refuse an
 * answer frozen or rolled back by whoever stands between it and the registry.
 */
@Injectable()
export class FreshnessService {
  // Every `latest` answer would say it while the key is unusable: once a minute is enough.
  private readonly unsignable = new OccasionalWarning((message) => new Logger('Freshness').error(message));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly statements: FreshnessRepository,
    private readonly integrity: IntegrityService,
    private readonly clock: Clock,
  ) {}

  /**
   * The statement for this answer, or null when this instance signs nothing (a mirror) or cannot
   * sign (its key does not decrypt: the catalogue still answers, as it does for publishing).
   */
  async statementFor(choice: LatestChoice): Promise<string | null> {
    if (this.config.mirrorOf) return null;
    const platform = freshnessPlatformKey(choice.platform);
    const now = this.clock.now();
    const { stored, logSize } = await this.statements.findWithLogSize(choice.slug, platform);
    if (stored && this.reusable(stored, choice, now)) return stored.jws;
    let row: FreshnessRow;
    try {
      row = await this.sign(choice, platform, now, logSize);
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      this.unsignable.say(`latest answers go out without a freshness statement: ${error.message}`);
      return null;
    }
    if (await this.statements.replace(row, stored?.jws ?? null)) return row.jws;
    // Another instance re-signed meanwhile: serve its statement when it fits, so both agree.
    const winner = await this.statements.find(choice.slug, platform);
    return winner && this.reusable(winner, choice, now) ? winner.jws : row.jws;
  }

  /** Younger than half its lifetime, and the same version and asset. */
  private reusable(row: FreshnessRow, choice: LatestChoice, now: Date): boolean {
    const halfLife = (row.expiresAt.getTime() - row.issuedAt.getTime()) / 2;
    return row.version === choice.version && row.assetSha256 === choice.assetSha256 && now.getTime() - row.issuedAt.getTime() < halfLife && row.issuedAt.getTime() <= now.getTime();
  }

  private async sign(choice: LatestChoice, platform: string, now: Date, logSize: number): Promise<FreshnessRow> {
    const issuedAt = new Date(rfc3339Seconds(now));
    const expiresAt = new Date(issuedAt.getTime() + this.config.freshnessLifetimeSeconds * 1000);
    const statement: FreshnessStatement = {
      slug: choice.slug,
      version: choice.version,
      platform: choice.platform,
      asset_sha256: choice.assetSha256,
      issued_at: rfc3339Seconds(issuedAt),
      expires_at: rfc3339Seconds(expiresAt),
      tree_size: logSize,
    };
    const jws = await this.integrity.signFreshness(statement);
    return { slug: choice.slug, platform, version: choice.version, assetSha256: choice.assetSha256, treeSize: statement.tree_size, jws, issuedAt, expiresAt };
  }
}
