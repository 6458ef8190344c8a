import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AdminOnly } from '../platform/auth/auth.decorators';
import { ProblemDto } from '../openapi/problem.dto';
import { MirrorStatusDto } from './dto/mirror-status.dto';
import { MirrorAdminService } from './mirror-admin.service';

@ApiTags('admin')
@Controller('api/admin/mirror')
@AdminOnly()
export class MirrorController {
  constructor(private readonly mirror: MirrorAdminService) {}

  @Get()
  @ApiOperation({
    summary: "The mirror's state",
    description:
      'Upstream (MIRROR_OF), the changes-feed cursor, the last poll and the releases refused because they did not verify. See docs/mirror.md.',
  })
  @ApiOkResponse({ type: MirrorStatusDto })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Not signed in' })
  status(): Promise<MirrorStatusDto> {
    return this.mirror.status();
  }
}
