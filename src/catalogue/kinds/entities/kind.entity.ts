import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ExtensionFieldDeclaration } from '../../../lib/manifest';

/** A plugin kind (taxonomy entry). The key is immutable; disabled kinds are kept for admins. */
@Entity('kind')
export class KindEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  key: string;

  @Column({ type: 'varchar', length: 100 })
  label: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'extension_fields', type: 'jsonb', default: () => "'[]'" })
  extensionFields: ExtensionFieldDeclaration[];

  /** Releases of this kind must carry a Sigstore provenance bundle that verifies at ingest. */
  @Column({ name: 'require_provenance', type: 'boolean', default: false })
  requireProvenance: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
