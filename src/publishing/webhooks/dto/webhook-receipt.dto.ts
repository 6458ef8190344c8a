import { ApiProperty } from '@nestjs/swagger';

export class WebhookReceiptDto {
  @ApiProperty({ enum: ['queued', 'duplicate', 'ignored'] })
  status: 'queued' | 'duplicate' | 'ignored';

  @ApiProperty()
  detail: string;

  @ApiProperty({ type: String, nullable: true, description: 'The stored delivery, when this request queued one' })
  id: string | null;
}
