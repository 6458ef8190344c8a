import { SubscriptionDeliveryEntity } from './subscription-delivery.entity';
import { SubscriptionEventEntity } from './subscription-event.entity';
import { SubscriptionEntity } from './subscription.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const SUBSCRIPTIONS_ENTITIES = [SubscriptionEntity, SubscriptionEventEntity, SubscriptionDeliveryEntity];
