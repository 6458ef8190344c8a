import type { DataSource } from 'typeorm';
import { KindEntity } from './entities/kind.entity';

export class KindsRepository {
  constructor(private readonly dataSource: DataSource) {}

  all(): Promise<KindEntity[]> {
    return this.dataSource.getRepository(KindEntity).find({ order: { key: 'ASC' } });
  }

  enabled(): Promise<KindEntity[]> {
    return this.dataSource.getRepository(KindEntity).find({ where: { enabled: true }, order: { key: 'ASC' } });
  }
}
