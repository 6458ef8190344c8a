import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An operator setting (`manifest.require_release_asset`, `hash.budget_bytes`, ...) as JSON. */
@Entity('app_setting')
export class AppSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  key: string;

  @Column({ type: 'jsonb' })
  value: unknown;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
