import { Module } from '@nestjs/common';
import { repositoryProvider } from '../database/repository-provider';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '../common/clock';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { SigningKeyEntity } from './entities/signing-key.entity';
import { IntegrityController } from './integrity.controller';
import { IntegrityService } from './integrity.service';
import { KeyEncryption } from './key-encryption';
import { KeysService } from './keys.service';
import { RandomSigningKeyGenerator, SigningKeyGenerator } from './signing-key-generator';
import { SigningKeyManager } from './signing-key-manager';
import { SigningKeyRepository } from './signing-key.repository';

/**
 * Release signing (DECISIONS 7): signing keys encrypted at rest, the first key at start, rotation,
 * the public key set at /.well-known/registry-key.json, and `IntegrityService.signRelease` for the
 * Publish module. The key logic lives in framework-free classes the operator CLI shares.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SigningKeyEntity])],
  controllers: [IntegrityController],
  providers: [
    { provide: SigningKeyGenerator, useClass: RandomSigningKeyGenerator },
    repositoryProvider(SigningKeyRepository),
    {
      provide: SigningKeyManager,
      inject: [SigningKeyRepository, APP_CONFIG, SigningKeyGenerator, Clock],
      useFactory: (repository: SigningKeyRepository, config: AppConfig, generator: SigningKeyGenerator, clock: Clock) =>
        new SigningKeyManager(repository, new KeyEncryption(config.keyEncryptionKey), generator, () => clock.now()),
    },
    IntegrityService,
    KeysService,
  ],
  exports: [IntegrityService, KeysService],
})
export class IntegrityModule {}
