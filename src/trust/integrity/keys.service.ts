import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AuditActor } from '../../platform/audit/audit.service';
import { AuditService } from '../../platform/audit/audit.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { SigningKeyDecryptionError } from './key-encryption';
import { ReleaseResignWorker } from './release-resign-worker';
import { rotationAuditDetails, SigningKeyManager } from './signing-key-manager';
import type { EnsuredKey, KeyRotation, SigningKeyInfo } from './signing-key.types';

/**
 * Signing-key administration: the first key at start, listing and rotation (admin routes, CLI),
 * and the background re-signing that lets a displaced key leave the key set.
 */
@Injectable()
export class KeysService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Integrity');

  constructor(
    private readonly keys: SigningKeyManager,
    private readonly audit: AuditService,
    private readonly resignWorker: ReleaseResignWorker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The first start creates the first key; every instance then checks that it can decrypt it, and
   * starts re-signing (resuming a drain another instance or a crash left unfinished).
   */
  async onApplicationBootstrap(): Promise<void> {
    // A mirror signs nothing: it serves upstream's keys and signatures as copied.
    if (this.config.mirrorOf) return;
    const ensured = await this.keys.ensureCurrentKey();
    if (ensured.created) this.logger.log(`created the first release-signing key ${ensured.kid}`);
    try {
      await this.keys.signingKey();
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      // The catalogue still serves; publishing and re-signing wait until the right key is configured.
      this.logger.error(`releases cannot be signed: ${error.message}`);
      return;
    }
    this.resignWorker.start();
  }

  /** Before the database closes: the batch under way commits, nothing new starts. */
  async onModuleDestroy(): Promise<void> {
    await this.resignWorker.stop();
  }

  ensureCurrentKey(): Promise<EnsuredKey> {
    return this.keys.ensureCurrentKey();
  }

  /** Every key with its state and re-signing counts: current, previous, draining, then retired keys newest first. */
  list(): Promise<SigningKeyInfo[]> {
    return this.keys.list();
  }

  /**
   * Rotates in one transaction and audits `key.rotate` in that same transaction, then wakes the
   * re-signing worker for the key that now drains.
   */
  async rotate(actor: AuditActor): Promise<KeyRotation> {
    const rotation = await this.keys.rotate((manager, done) =>
      this.audit.record({ action: 'key.rotate', actor, details: rotationAuditDetails(done) }, manager),
    );
    this.resignWorker.kick();
    return rotation;
  }
}
