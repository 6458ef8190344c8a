import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { ForgesModule } from '../../platform/forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { PluginsModule } from '../../catalogue/plugins/plugins.module';
import { RepositoryAccessModule } from '../repository-access/repository-access.module';
import { PendingPublishersController } from './pending-publishers.controller';
import { PendingPublishersRepository } from './pending-publishers.repository';
import { PendingPublishersService } from './pending-publishers.service';
import { PublisherIdentities } from './publisher-identity';
import { TrustedPublishersController } from './trusted-publishers.controller';
import { TrustedPublishersRepository } from './trusted-publishers.repository';
import { TrustedPublishersService } from './trusted-publishers.service';
import { TokensModule } from '../../accounts/tokens/tokens.module';
import { IdTokenVerifier } from './oidc/id-token-verifier';
import { IssuerKeys } from './oidc/issuer-keys';
import { PendingClaims } from './pending-claims';
import { PendingPrecedence } from './pending-precedence';
import { TokenExchangeController } from './token-exchange.controller';
import { TokenExchangeService } from './token-exchange.service';
import { TrustedGrants } from './trusted-grants';
import { UsedOidcTokensRepository } from './used-oidc-tokens.repository';

/**
 * Trusted publishing (docs/trusted-publishing.md): CI jobs publish with their forge's OIDC ID token
 * instead of a stored secret. Owners name the CI jobs that may publish a plugin; signed-in users
 * name the CI job that will claim a slug not yet taken.
 */
@Module({
  imports: [AuthModule, PluginsModule, ForgesModule, IngestModule, RepositoryAccessModule, TokensModule],
  controllers: [TrustedPublishersController, PendingPublishersController, TokenExchangeController],
  providers: [
    repositoryProvider(TrustedPublishersRepository),
    repositoryProvider(PendingPublishersRepository),
    repositoryProvider(UsedOidcTokensRepository),
    PublisherIdentities,
    IssuerKeys,
    IdTokenVerifier,
    TrustedGrants,
    TokenExchangeService,
    PendingClaims,
    PendingPrecedence,
    TrustedPublishersService,
    PendingPublishersService,
  ],
  exports: [PendingClaims],
})
export class TrustedPublishingModule {}
