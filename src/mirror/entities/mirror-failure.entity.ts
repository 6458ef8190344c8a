import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An upstream release a mirror refused to copy: its signature, manifest or an asset did not
 * verify. The release is not served; the refusal stays on record for the operator.
 */
@Entity('mirror_failure')
@Index('idx_mirror_failure_at', ['failedAt'])
export class MirrorFailureEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 64 })
  version: string;

  /** The verifier's code (BAD_SIGNATURE, HASH_MISMATCH, MANIFEST_MISMATCH, ...). */
  @Column({ type: 'varchar', length: 40 })
  code: string;

  @Column({ type: 'varchar', length: 500 })
  message: string;

  @Column({ name: 'failed_at', type: 'timestamptz' })
  failedAt: Date;
}
