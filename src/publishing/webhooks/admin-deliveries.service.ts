import { Injectable } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { toAdminDeliveryDto } from './delivery.mapper';
import type { AdminDeliveryPageDto, AdminDeliveryQueryDto } from './dto/admin-delivery.dto';

/** The admin-wide list of deliveries across plugins (owners see their own plugin's under /api/plugins). */
@Injectable()
export class AdminDeliveriesService {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  async page(query: AdminDeliveryQueryDto): Promise<AdminDeliveryPageDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { deliveries, total } = await this.deliveries.page({ status: query.status, slug: query.slug }, page, limit);
    return { deliveries: deliveries.map(toAdminDeliveryDto), page, limit, total, totalPages: Math.ceil(total / limit) };
  }
}
