import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { PageCountDto } from '../../../common/validation/page-query.dto';
import { EVENT_TYPES, SUBSCRIPTION_SCOPES, type SubscriptionScope } from '../event-types';

export const MAX_URL_LENGTH = 2048;

export class CreateSubscriptionDto {
  @ApiProperty({
    maxLength: MAX_URL_LENGTH,
    example: 'https://ci.example.com/hooks/registry',
    description: 'https; http, and private or loopback addresses, only for hosts in SUBSCRIPTION_ALLOW_HOSTS',
  })
  @IsString()
  @Length(1, MAX_URL_LENGTH)
  url: string;

  @ApiProperty({ required: false, maxLength: 100, example: 'Deploy bot' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  description?: string;

  @ApiProperty({
    enum: EVENT_TYPES,
    isArray: true,
    example: ['release.published'],
    description: 'Operational events (webhook.delivery_failed, ingest.failed, key.rotated) are for admins only',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true })
  events: string[];

  @ApiProperty({
    enum: SUBSCRIPTION_SCOPES,
    description:
      'plugin: one plugin (target its slug); kind: plugins of a kind (target its key); owned: plugins you own when the event happens; registry: every plugin (admins only)',
  })
  @IsIn(SUBSCRIPTION_SCOPES)
  scope: SubscriptionScope;

  @ApiProperty({ required: false, maxLength: 64, description: 'The slug (scope plugin) or kind key (scope kind); absent otherwise' })
  @ValidateIf((o: CreateSubscriptionDto) => o.scope === 'plugin' || o.scope === 'kind' || o.target !== undefined)
  @IsString()
  @Length(1, 64)
  target?: string;
}

export class SubscriptionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  url: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true })
  events: string[];

  @ApiProperty({ enum: SUBSCRIPTION_SCOPES })
  scope: SubscriptionScope;

  @ApiProperty({ type: String, nullable: true })
  target: string | null;

  @ApiProperty({
    enum: ['active', 'failing', 'disabled'],
    description: 'failing: its last delivery failed; disabled: nothing is delivered',
  })
  status: 'active' | 'failing' | 'disabled';

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms since deliveries have been failing without a success' })
  failingSince: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms' })
  disabledAt: number | null;

  @ApiProperty({ type: String, nullable: true })
  disabledReason: string | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class SubscriptionListDto {
  @ApiProperty({ type: [SubscriptionDto] })
  subscriptions: SubscriptionDto[];
}

export class CreatedSubscriptionDto {
  @ApiProperty({ type: SubscriptionDto })
  subscription: SubscriptionDto;

  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret (Standard Webhooks). Shown once.' })
  secret: string;
}

export class SubscriptionDeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'The event: the `webhook-id` header of every attempt' })
  eventId: string;

  @ApiProperty({ enum: EVENT_TYPES })
  type: string;

  @ApiProperty({ type: String, nullable: true })
  slug: string | null;

  @ApiProperty({ enum: ['queued', 'processing', 'succeeded', 'failed'] })
  status: string;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ type: Number, nullable: true, description: "The last attempt's HTTP status; null when no answer came" })
  responseStatus: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Why the last attempt failed, in generic words (timeout, connection refused, refused address); null after a success. Never any of the receiver's answer.",
  })
  detail: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'How long the last attempt took, in milliseconds; null before one was made' })
  durationMs: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms; the next attempt while queued' })
  nextAttemptAt: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms' })
  lastAttemptAt: number | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class SubscriptionDeliveryListDto extends PageCountDto {
  @ApiProperty({ type: [SubscriptionDeliveryDto] })
  deliveries: SubscriptionDeliveryDto[];
}

export class PingResultDto {
  @ApiProperty()
  ok: boolean;

  @ApiProperty({ type: Number, nullable: true, description: "The receiver's HTTP status; null when no answer came" })
  responseStatus: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Why the ping failed, in generic words; null when it succeeded. Never any of the receiver's answer.",
  })
  detail: string | null;

  @ApiProperty({ description: 'How long the ping took, in milliseconds' })
  durationMs: number;
}
