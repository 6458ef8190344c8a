import { Injectable } from '@nestjs/common';
import { AuditRepository } from '../../platform/audit/audit.repository';
import { Clock } from '../../common/clock';
import { addDays, dayStartMs, daysEndingOn, utcDay } from '../../lib/charts/days';
import { ACTIVITY_ACTIONS, toActivityDto } from './activity.mapper';
import { DEFAULT_ACTIVITY_DAYS, type ActivityDto, type ActivityQueryDto } from './dto/activity.dto';

/** The admin home's charts: publishes, failed webhook deliveries and ingest errors per UTC day, read from the audit log. */
@Injectable()
export class AdminActivityService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly clock: Clock,
  ) {}

  async activity(query: ActivityQueryDto): Promise<ActivityDto> {
    const days = daysEndingOn(utcDay(this.clock.now()), query.days ?? DEFAULT_ACTIVITY_DAYS);
    const from = new Date(dayStartMs(days[0]));
    const to = new Date(dayStartMs(addDays(days[days.length - 1], 1)));
    const actions = Object.values(ACTIVITY_ACTIONS).flat();
    return toActivityDto(days, await this.audit.countByDay(actions, from, to));
  }
}
