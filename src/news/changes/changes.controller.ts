import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';
import { ProblemDto } from '../../openapi/problem.dto';
import { ChangesService } from './changes.service';
import { ChangesPageDto, ChangesQueryDto } from './dto/changes.dto';

@ApiTags('changes')
@Controller('api/changes')
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get()
  // A follower polls for what is new: never an old copy.
  @Header('Cache-Control', 'no-cache')
  // The body is a ChangesPageDto written as JSON text by the service.
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({
    summary: 'The changes feed',
    description:
      'Every change to public catalogue state (releases published, yanked, deleted; plugins verified, deprecated, deleted; the key set) in commit order, after the cursor `since`. ' +
      'A cursor stays valid for good: no change ever appears behind one already handed out. See docs/changes-feed.md.',
  })
  @ApiPublic()
  @ApiOkResponse({ type: ChangesPageDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'A `since` that is not a cursor, a `limit` outside 1-1000, or an unknown parameter',
  })
  page(@Query() query: ChangesQueryDto): Promise<string> {
    return this.changes.page(query);
  }
}
