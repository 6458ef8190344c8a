import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageEnvelopeDto, PageQueryDto } from '../../../common/validation/page-query.dto';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';
import { DeliveryDto } from './delivery.dto';

export class AdminDeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ description: "Only this plugin's deliveries" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  slug?: string;
}

export class AdminDeliveryDto extends DeliveryDto {
  @ApiProperty({ description: 'The plugin the delivery is for' })
  slug: string;
}

export class AdminDeliveryPageDto extends PageEnvelopeDto {
  @ApiProperty({ type: [AdminDeliveryDto], description: 'Newest first' })
  deliveries: AdminDeliveryDto[];
}
