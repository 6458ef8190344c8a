import { Module } from '@nestjs/common';
import { repositoryProvider } from '../database/repository-provider';
import { AuthModule } from '../auth/auth.module';
import { PublisherTokenGuard } from './publisher-token.guard';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [AuthModule],
  controllers: [TokensController],
  providers: [
    repositoryProvider(TokensRepository),
    TokensService,
    PublisherTokenGuard,
  ],
  exports: [TokensService, TokensRepository, PublisherTokenGuard],
})
export class TokensModule {}
