import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A forge instance an admin added (the install wizard or `POST /api/admin/forges`), live without a
 * restart next to the `FORGES` entries. The OAuth client secret is kept only sealed with
 * `KEY_ENCRYPTION_KEY` (AES-256-GCM, the instance name as additional data: see
 * stored-forge-secret.ts) and is never selected by default: only the registry's load asks for it.
 */
@Entity('forge_instance')
@Check('chk_forge_instance_type', `"type" IN ('github', 'gitlab', 'gitea', 'forgejo')`)
export class StoredForgeEntity {
  /** The instance name, as in `/auth/<name>/login`; unique across configured and stored instances. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column({ name: 'web_url', type: 'varchar', length: 2048 })
  webUrl: string;

  @Column({ name: 'api_url', type: 'varchar', length: 2048 })
  apiUrl: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId: string;

  /** Version byte, IV, tag and ciphertext of the client secret (src/common/crypto/secret-box.ts). */
  @Column({ name: 'client_secret_sealed', type: 'bytea', select: false })
  clientSecretSealed?: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The admin who added it; null when added through the install wizard's bootstrap token. */
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;
}
