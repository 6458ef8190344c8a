import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminActivityService } from './admin-activity.service';
import { ActivityDto, ActivityQueryDto } from './dto/activity.dto';

@ApiTags('admin')
@Controller('api/admin/activity')
@AdminOnly()
export class AdminActivityController {
  constructor(private readonly activity: AdminActivityService) {}

  @Get()
  @ApiOperation({
    summary: 'Publishes, failed webhook deliveries and ingest errors per day',
    description: 'Counted from the audit log by UTC day, the last `days` days ending today.',
  })
  @ApiOkResponse({ type: ActivityDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'A `days` outside 1-366, or an unknown parameter' })
  get(@Query() query: ActivityQueryDto): Promise<ActivityDto> {
    return this.activity.activity(query);
  }
}
