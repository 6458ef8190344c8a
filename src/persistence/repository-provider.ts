import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Repositories are plain classes over a DataSource (so the operator CLI uses the same queries
 * without Nest); this makes one a Nest provider.
 */
export function repositoryProvider<T>(repository: new (dataSource: DataSource) => T): Provider {
  return { provide: repository, useFactory: (dataSource: DataSource) => new repository(dataSource), inject: [DataSource] };
}
