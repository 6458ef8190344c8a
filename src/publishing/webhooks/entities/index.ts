import { PluginWebhookEntity } from './plugin-webhook.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const WEBHOOKS_ENTITIES = [PluginWebhookEntity, WebhookDeliveryEntity];
