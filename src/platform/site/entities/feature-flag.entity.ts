import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * An admin's setting of one feature flag. Flags are declared in code (feature-flags.ts) with their
 * defaults; a flag without a row has its default, and a row whose flag left the code is ignored.
 */
@Entity('feature_flag')
export class FeatureFlagEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
