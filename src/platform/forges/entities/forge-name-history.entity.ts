import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Which web URL each added instance name stood for, kept after the instance is removed. Accounts
 * are keyed by (instance name, the forge's user id), so a name re-added for another server would
 * hand its accounts to that server's users with the same ids: the name may only come back for the
 * same web URL while accounts use it.
 */
@Entity('forge_name_history')
export class ForgeNameHistoryEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name: string;

  /** The web URL as stored (normalized: no trailing slash); compared scheme- and host-insensitively. */
  @Column({ name: 'web_url', type: 'varchar', length: 2048 })
  webUrl: string;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt: Date;
}
