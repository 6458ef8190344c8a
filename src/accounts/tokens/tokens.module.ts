import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { AuthModule } from '../../platform/auth/auth.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { PublisherTokenGuard } from './publisher-token.guard';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [AuthModule, RateLimitModule],
  controllers: [TokensController],
  providers: [repositoryProvider(TokensRepository), TokensService, PublisherTokenGuard],
  // RateLimitModule too: the guard is instantiated where it is used, and needs RateLimitGate there.
  exports: [TokensService, TokensRepository, PublisherTokenGuard, RateLimitModule],
})
export class TokensModule {}
