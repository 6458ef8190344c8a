import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { PublicJwk } from '../../lib/integrity';
import { MirroredKeyEntity } from './entities/mirrored-key.entity';

/** The upstream key set a mirror serves (MIRROR_OF). */
export class MirroredKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(MirroredKeyEntity);
  }

  async list(manager?: EntityManager): Promise<PublicJwk[]> {
    const rows = await this.repo(manager).find({ order: { position: 'ASC' } });
    return rows.map((row) => row.jwk as unknown as PublicJwk);
  }

  /** Replaces the whole set with upstream's, in the caller's transaction. */
  async replace(keys: readonly PublicJwk[], at: Date, manager: EntityManager): Promise<void> {
    await this.repo(manager).createQueryBuilder().delete().execute();
    if (!keys.length) return;
    await this.repo(manager).insert(
      keys.map(
        (jwk, position) =>
          ({
            kid: jwk.kid,
            jwk: jwk as unknown as Record<string, unknown>,
            position,
            fetchedAt: at,
          }) as QueryDeepPartialEntity<MirroredKeyEntity>,
      ),
    );
  }
}
