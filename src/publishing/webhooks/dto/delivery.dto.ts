import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';

export class DeliveryViolationDto {
  @ApiProperty({ description: 'JSON pointer into the manifest' })
  path: string;

  @ApiProperty()
  message: string;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ['github', 'gitlab', 'gitea', 'forgejo'] })
  provider: string;

  @ApiProperty({ description: "The forge's delivery id" })
  deliveryId: string;

  @ApiProperty({ example: 'release' })
  event: string;

  @ApiProperty({ enum: ['webhook', 'reconcile'] })
  source: string;

  @ApiProperty({ example: 'v1.2.0' })
  tag: string;

  @ApiProperty({ type: String, nullable: true, description: 'The version recorded, once ingested' })
  version: string | null;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status: DeliveryStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why it failed or was skipped, a problem code: manifest-asset-missing, manifest-invalid, version-mismatch, asset-fetch-failed, ...',
  })
  reason: string | null;

  @ApiProperty({ type: String, nullable: true })
  detail: string | null;

  @ApiProperty({ type: [DeliveryViolationDto], nullable: true, description: 'Manifest violations, for an invalid manifest' })
  violations: DeliveryViolationDto[] | null;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt: string | null;
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto], description: 'The 50 most recent deliveries, newest first' })
  deliveries: DeliveryDto[];
}

export class WebhookSecretDto {
  @ApiProperty()
  slug: string;

  @ApiProperty({ example: 'https://registry.example/api/webhooks/release' })
  webhookUrl: string;

  @ApiProperty({ description: 'The new secret (64 hex characters), shown this once; the previous one stops working now' })
  webhookSecret: string;
}

export class ReconcileResultDto {
  @ApiProperty({ description: 'Releases found on the forge that the registry lacked, queued as deliveries of source reconcile' })
  queued: number;

  @ApiProperty({ type: [String] })
  tags: string[];
}
