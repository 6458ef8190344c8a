import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { PluginEntity } from '../../../catalogue/plugins/entities/plugin.entity';

/**
 * A plugin's release-webhook secret, sealed with KEY_ENCRYPTION_KEY (AES-256-GCM, bound to the
 * plugin's id). Never selected by default; read only to verify a delivery.
 */
@Entity('plugin_webhook')
export class PluginWebhookEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @OneToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  @Column({ name: 'secret_sealed', type: 'bytea', select: false })
  secretSealed: Buffer;

  /** Whether the registry installed the hook on the forge itself (false: set up by hand). */
  @Column({ name: 'hook_installed', type: 'boolean', default: false })
  hookInstalled: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
