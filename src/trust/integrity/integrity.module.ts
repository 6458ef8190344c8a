import { Logger, Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '../../common/clock';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { ReleaseResignFailureEntity } from './entities/release-resign-failure.entity';
import { MirroredKeyEntity } from './entities/mirrored-key.entity';
import { SigningKeyEntity } from './entities/signing-key.entity';
import { MirroredKeysRepository } from './mirrored-keys.repository';
import { IntegrityController } from './integrity.controller';
import { IntegrityService } from './integrity.service';
import { KeyEncryption } from './key-encryption';
import { KeysService } from './keys.service';
import { DEFAULT_RESIGN_WORKER_OPTIONS, ReleaseResignWorker, type ResignWorkerOptions } from './release-resign-worker';
import { ReleaseResigner } from './release-resigner';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { ReleaseSignaturesRepository } from './release-signatures.repository';
import { RandomSigningKeyGenerator, SigningKeyGenerator } from './signing-key-generator';
import { SigningKeyManager } from './signing-key-manager';
import { SigningKeyRepository } from './signing-key.repository';
import { TransparencyLog } from '../transparency-log/transparency-log';
import { TransparencyLogModule } from '../transparency-log/transparency-log.module';

/** Batch size, interval and retirement grace of the background re-signing; tests override it. */
export const RESIGN_WORKER_OPTIONS = Symbol('RESIGN_WORKER_OPTIONS');

/**
 * Release signing (docs/decisions.md#releases-are-signed-with-ed25519-over-canonical-json): signing
 * keys encrypted at rest, the first key at start, rotation with re-signing of a displaced key's
 * releases, the public key set at /.well-known/registry-key.json, and
 * `IntegrityService.signRelease` for the Publish module. The key logic lives in framework-free
 * classes the operator CLI shares.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SigningKeyEntity, ReleaseResignFailureEntity, MirroredKeyEntity]), TransparencyLogModule],
  controllers: [IntegrityController],
  providers: [
    { provide: SigningKeyGenerator, useClass: RandomSigningKeyGenerator },
    repositoryProvider(SigningKeyRepository),
    repositoryProvider(ReleaseSignaturesRepository),
    repositoryProvider(MirroredKeysRepository),
    {
      provide: SigningKeyManager,
      inject: [SigningKeyRepository, ReleaseSignaturesRepository, APP_CONFIG, SigningKeyGenerator, TransparencyLog, Clock],
      useFactory: (
        repository: SigningKeyRepository,
        signatures: ReleaseSignaturesRepository,
        config: AppConfig,
        generator: SigningKeyGenerator,
        log: TransparencyLog,
        clock: Clock,
      ) => new SigningKeyManager(repository, signatures, new KeyEncryption(config.keyEncryptionKey), generator, log, () => clock.now()),
    },
    {
      provide: ReleaseResigner,
      inject: [SigningKeyRepository, ReleaseSignaturesRepository, SigningKeyManager, Clock, ResponseCache],
      useFactory: (
        keys: SigningKeyRepository,
        signatures: ReleaseSignaturesRepository,
        manager: SigningKeyManager,
        clock: Clock,
        responses: ResponseCache,
      ) =>
        new ReleaseResigner(
          keys,
          signatures,
          manager,
          () => clock.now(),
          () => responses.beginWrite(),
        ),
    },
    { provide: RESIGN_WORKER_OPTIONS, useValue: DEFAULT_RESIGN_WORKER_OPTIONS },
    {
      provide: ReleaseResignWorker,
      inject: [ReleaseResigner, RESIGN_WORKER_OPTIONS, ResponseCache],
      useFactory: (resigner: ReleaseResigner, options: ResignWorkerOptions, responses: ResponseCache) =>
        new ReleaseResignWorker(resigner, options, new Logger('Integrity'), () => responses.invalidate()),
    },
    IntegrityService,
    KeysService,
  ],
  exports: [IntegrityService, KeysService, MirroredKeysRepository, SigningKeyManager],
})
export class IntegrityModule {}
