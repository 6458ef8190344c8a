import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AuditActor } from '../audit/audit.service';
import { AuditService } from '../audit/audit.service';
import { SigningKeyDecryptionError } from './key-encryption';
import { rotationAuditDetails, SigningKeyManager } from './signing-key-manager';
import type { EnsuredKey, KeyRotation, SigningKeyInfo } from './signing-key.types';

/** Signing-key administration: the first key at start, listing and rotation (admin routes, CLI). */
@Injectable()
export class KeysService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Integrity');

  constructor(
    private readonly keys: SigningKeyManager,
    private readonly audit: AuditService,
  ) {}

  /** The first start creates the first key; every instance then checks that it can decrypt it. */
  async onApplicationBootstrap(): Promise<void> {
    const ensured = await this.keys.ensureCurrentKey();
    if (ensured.created) this.logger.log(`created the first release-signing key ${ensured.kid}`);
    try {
      await this.keys.signingKey();
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      // The catalogue still serves; publishing cannot sign until the right key is configured.
      this.logger.error(`releases cannot be signed: ${error.message}`);
    }
  }

  ensureCurrentKey(): Promise<EnsuredKey> {
    return this.keys.ensureCurrentKey();
  }

  /** Every key with its state: current, previous, then retired keys newest first. */
  list(): Promise<SigningKeyInfo[]> {
    return this.keys.list();
  }

  /** Rotates in one transaction and audits `key.rotate` in that same transaction. */
  rotate(actor: AuditActor): Promise<KeyRotation> {
    return this.keys.rotate((manager, rotation) =>
      this.audit.record(
{ action: 'key.rotate', actor, details: rotationAuditDetails(rotation) }, manager),
    );
  }
}
