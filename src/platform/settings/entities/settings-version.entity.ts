import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row whose `version` moves on every write to `app_setting` (a statement trigger bumps it in
 * the writing transaction). Each instance compares it with the version of its cached settings
 * before using them, so a change made through any instance, the CLI or plain SQL is seen at once.
 */
@Entity('settings_version')
@Check('ck_settings_version_single_row', '"id" = 1')
export class SettingsVersionEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  /** bigint, which the driver answers as a string. */
  @Column({ type: 'bigint', default: 0 })
  version: string;
}
