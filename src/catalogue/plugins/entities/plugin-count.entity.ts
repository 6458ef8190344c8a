import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many plugins there are, kept by statement triggers on `plugin` in the writing transaction:
 * the unfiltered catalogue's `total` without counting 100k rows on every page.
 */
@Entity('plugin_count')
@Check('ck_plugin_count_single_row', '"id" = 1')
export class PluginCountEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  /** bigint, which the driver answers as a string. */
  @Column({ type: 'bigint', default: 0 })
  plugins: string;
}
