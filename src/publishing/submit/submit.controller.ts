import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { Feature } from '../../platform/site/feature.guard';
import { ProblemDto } from '../../openapi/problem.dto';
import { SubmitDto, SubmitResultDto } from './dto/submit.dto';
import { SubmitService } from './submit.service';
import { UserActionLimit } from '../../platform/rate-limit/user-action-limit';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('submit')
@Controller('api/submit')
@Feature('submit')
@SignedIn()
export class SubmitController {
  constructor(private readonly submitting: SubmitService) {}

  @Post('oauth')
  @HttpCode(200)
  @UserActionLimit('submit')
  @ApiOkResponse({
    type: SubmitResultDto,
    description: 'Slug claimed (or already yours); a new webhook secret, and whether the hook was installed',
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'repoUrl is not a repository on a forge you can sign in with' })
  @ApiConflictResponse({ type: ProblemDto, description: 'The repository anchors another slug, or the slug another repository' })
  @ApiUnprocessableEntityResponse({ type: ProblemDto, description: 'No manifest on the default branch, or one with violations' })
  @ApiBadGatewayResponse({ type: ProblemDto, description: 'The forge could not be read' })
  @ApiOperation({ summary: 'Submit a plugin by its repository' })
  submit(@Auth() auth: AuthContext, @Body() body: SubmitDto, @Req() request: Request): Promise<SubmitResultDto> {
    return this.submitting.submit(auth, body, clientIp(request));
  }
}
