import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../platform/auth/auth.decorators';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { AdminDeliveryPageDto, AdminDeliveryQueryDto } from './dto/admin-delivery.dto';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/deliveries')
@AdminOnly()
export class AdminDeliveriesController {
  constructor(private readonly deliveries: AdminDeliveriesService) {}

  @Get()
  @ApiOkResponse({ type: AdminDeliveryPageDto, description: "Every plugin's webhook deliveries, newest first, by status and plugin" })
  @ApiOperation({ summary: 'List webhook deliveries of every plugin' })
  page(@Query() query: AdminDeliveryQueryDto): Promise<AdminDeliveryPageDto> {
    return this.deliveries.page(query);
  }
}
