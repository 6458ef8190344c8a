import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueReads } from '../persistence/catalogue-reads';
import { ReadReplicas } from '../persistence/read-replicas';
import type { DatabaseHandle } from './database-handle';
import { ENTITIES } from './entities';
import { ReadReplicaProbe } from './read-replica-probe';

export const DATABASE_HANDLE = Symbol('DATABASE_HANDLE');

/**
 * Hands Nest the DataSource that bootstrap already opened and migrated, so migrations finish
 * before any provider touches a table.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(handle: DatabaseHandle): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...handle.dataSource.options, entities: ENTITIES }),
          dataSourceFactory: async () => handle.dataSource,
        }),
      ],
      providers: [
        { provide: DATABASE_HANDLE, useValue: handle },
        { provide: ReadReplicas, useValue: handle.replicas },
        CatalogueReads,
        ReadReplicaProbe,
      ],
      exports: [DATABASE_HANDLE, ReadReplicas, CatalogueReads],
    };
  }
}
