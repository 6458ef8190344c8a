import type { AdminDeliveryDto } from './dto/admin-delivery.dto';
import type { DeliveryDto } from './dto/delivery.dto';
import type { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

export function toDeliveryDto(delivery: WebhookDeliveryEntity): DeliveryDto {
  return {
    id: delivery.id,
    provider: delivery.provider,
    deliveryId: delivery.deliveryId,
    event: delivery.event,
    source: delivery.source,
    tag: delivery.tag,
    version: delivery.version,
    status: delivery.status,
    reason: delivery.reason,
    detail: delivery.detail,
    violations: delivery.violations,
    attempts: delivery.attempts,
    createdAt: new Date(delivery.createdAt).toISOString(),
    finishedAt: delivery.finishedAt ? new Date(delivery.finishedAt).toISOString() : null,
  };
}

/** A delivery in the admin-wide list: the plugin's slug beside it (the plugin joined in). */
export function toAdminDeliveryDto(delivery: WebhookDeliveryEntity): AdminDeliveryDto {
  return { ...toDeliveryDto(delivery), slug: delivery.plugin?.slug ?? '' };
}
