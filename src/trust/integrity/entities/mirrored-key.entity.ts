import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A public key of the registry this instance mirrors (MIRROR_OF): a mirror signs nothing, so its
 * key set is its upstream's, copied as served and replaced whole each time upstream's changes.
 * Public keys only; there is no private half to keep.
 */
@Entity('mirrored_key')
export class MirroredKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  /** The public JWK as upstream published it. */
  @Column({ type: 'jsonb' })
  jwk: Record<string, unknown>;

  /** Its place in upstream's key set (current first). */
  @Column({ type: 'integer' })
  position: number;

  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt: Date;
}
