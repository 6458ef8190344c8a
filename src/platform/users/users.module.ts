import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { UsersRepository } from './users.repository';

@Module({
  providers: [repositoryProvider(UsersRepository)],
  exports: [UsersRepository],
})
export class UsersModule {}
