import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthModule } from '../auth/auth.module';
import { PublisherTokenGuard } from './publisher-token.guard';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [AuthModule],
  controllers: [TokensController],
  providers: [
    { provide: TokensRepository, useFactory: (dataSource: DataSource) => new TokensRepository(dataSource), inject: [DataSource] },
    TokensService,
    PublisherTokenGuard,
  ],
  exports: [TokensService, PublisherTokenGuard],
})
export class TokensModule {}
