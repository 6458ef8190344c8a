import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A release whose stored signature did not verify against the key it names, so it was not
 * re-signed (the registry never signs bytes it cannot vouch for). Its release keeps its old
 * signature, and the drain of that key does not wait for it. No foreign key: the row is the
 * integrity module's bookkeeping, and a deleted release simply stops being counted.
 */
@Entity('release_resign_failure')
export class ReleaseResignFailureEntity {
  @PrimaryColumn({ name: 'release_id', type: 'uuid' })
  releaseId: string;

  /** The kid the release's signature names. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  @Column({ type: 'varchar', length: 300 })
  reason: string;

  @Column({ name: 'failed_at', type: 'timestamptz' })
  failedAt: Date;
}
