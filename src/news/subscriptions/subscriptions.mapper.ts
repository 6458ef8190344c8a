import type { SubscriptionDeliveryDto, SubscriptionDto } from './dto/subscription.dto';
import type { SubscriptionDeliveryEntity } from './entities/subscription-delivery.entity';
import type { SubscriptionEntity } from './entities/subscription.entity';

const ms = (date: Date | null | undefined) => (date ? date.getTime() : null);

export function toSubscriptionDto(row: SubscriptionEntity): SubscriptionDto {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: [...row.events],
    scope: row.scope,
    target: row.target,
    status: row.disabledAt ? 'disabled' : row.failingSince ? 'failing' : 'active',
    failingSince: ms(row.failingSince),
    disabledAt: ms(row.disabledAt),
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.getTime(),
  };
}

export function toSubscriptionDeliveryDto(row: SubscriptionDeliveryEntity): SubscriptionDeliveryDto {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.event?.type ?? '',
    slug: row.event?.slug ?? null,
    // Parked is the worker's bookkeeping (its subscription or owner is disabled): to its owner it is queued.
    status: row.status === 'parked' ? 'queued' : row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    detail: row.detail,
    durationMs: row.durationMs,
    nextAttemptAt: row.status === 'queued' || row.status === 'parked' ? row.nextAttemptAt.getTime() : null,
    lastAttemptAt: ms(row.lastAttemptAt),
    createdAt: row.createdAt.getTime(),
  };
}
