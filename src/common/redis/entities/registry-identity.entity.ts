import { Check, Column, Entity, Generated, PrimaryColumn } from 'typeorm';

/**
 * One row naming this registry's database, made by its first migration run. Instances that share
 * the database share the name, whatever URL they reach it by; registries that share a Redis
 * keep their cache entries apart under it.
 */
@Entity('registry_identity')
@Check('ck_registry_identity_single_row', '"id" = 1')
export class RegistryIdentityEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ type: 'uuid' })
  @Generated('uuid')
  namespace: string;
}
