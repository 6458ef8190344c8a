import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { ForgeRegistry } from './forge-registry';
import { StoredForgesRepository } from './stored-forges.repository';

@Module({ providers: [repositoryProvider(StoredForgesRepository), ForgeRegistry], exports: [ForgeRegistry, StoredForgesRepository] })
export class ForgesModule {}
