import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Every complete subtree of the log: (level, index) covers leaves [index·2^level, (index+1)·2^level).
 * Level 0 repeats the leaf hashes so a proof's nodes, of any level, come from one indexed query.
 */
@Entity('transparency_node')
export class TransparencyNodeEntity {
  @PrimaryColumn({ type: 'smallint' })
  level: number;

  @PrimaryColumn({ type: 'bigint' })
  index: string;

  @Column({ type: 'bytea' })
  hash: Buffer;
}
