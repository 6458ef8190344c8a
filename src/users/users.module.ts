import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UsersRepository } from './users.repository';

@Module({
  providers: [{ provide: UsersRepository, useFactory: (dataSource: DataSource) => new UsersRepository(dataSource), inject: [DataSource] }],
  exports: [UsersRepository],
})
export class UsersModule {}
