import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row whose `version` moves with every statement that writes `forge_instance` (a trigger, in
 * the writing transaction). Each instance compares it with the version of its loaded forge list
 * (one primary-key lookup), so an instance added or removed through any server is seen by all.
 */
@Entity('forge_instance_version')
@Check('ck_forge_instance_version_single_row', '"id" = 1')
export class StoredForgeVersionEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  /** bigint, which the driver answers as a string. */
  @Column({ type: 'bigint', default: 0 })
  version: string;
}
