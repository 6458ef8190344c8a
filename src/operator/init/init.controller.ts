import { Body, Controller, Get, Header, HttpCode, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiGoneResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { bearerToken, clientIp } from '../../platform/auth/auth-context';
import { SessionIssuedDto } from '../../platform/auth/dto/session-issued.dto';
import { BodyReadGuard } from '../../common/http/deferred-body-error';
import { ProblemDto } from '../../openapi/problem.dto';
import { CreateAdminDto, InitSettingsDto, InitSettingsResultDto, InitStatusDto } from './dto/init.dto';
import { InitService } from './init.service';
import { WizardOpenGuard } from './wizard-open.guard';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('install wizard')
@Controller('api/init')
export class InitController {
  constructor(private readonly init: InitService) {}

  @Get('status')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: InitStatusDto })
  @ApiOperation({ summary: 'Whether the instance is set up' })
  @ApiPublic()
  @ApiTooManyRequestsResponse({
    type: ProblemDto,
    description: 'Over the install wizard limit of the client address (ratelimit.signin_per_min); Retry-After says when to try again',
  })
  status(): Promise<InitStatusDto> {
    return this.init.status();
  }

  @Post('admin')
  @UseGuards(WizardOpenGuard, BodyReadGuard)
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @ApiBearerAuth()
  @ApiCreatedResponse({
    type: SessionIssuedDto,
    description: 'The first admin and a session for it, also set as the registry_session cookie; the wizard closes',
  })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Missing or wrong bootstrap token' })
  @ApiGoneResponse({
    type: ProblemDto,
    description: 'An admin already exists: answered whatever the body (before it is read or validated)',
  })
  @ApiOperation({ summary: 'Create the first admin' })
  createAdmin(
    @Req() request: Request,
    @Body() body: CreateAdminDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionIssuedDto> {
    return this.init.createAdmin(bearerToken(request), body, clientIp(request), response);
  }

  @Put('settings')
  @UseGuards(WizardOpenGuard, BodyReadGuard)
  @Header('Cache-Control', 'no-store')
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Save the site name and forge instances (install wizard)',
    description: 'Before the first admin exists; forge instances given here are live at once, sign-in included.',
  })
  @ApiOkResponse({ type: InitSettingsResultDto, description: 'The site name and the forge instances added through the wizard' })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description:
      'A field is wrong (errors name each), a forge URL is refused by the fetch policy, or baseUrl was given (it is configuration)',
  })
  @ApiConflictResponse({ type: ProblemDto, description: 'A forge name or web URL is taken by a configured instance, or given twice' })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Missing or wrong bootstrap token' })
  @ApiGoneResponse({
    type: ProblemDto,
    description: 'An admin already exists: answered whatever the body (before it is read or validated)',
  })
  @ApiOperation({ summary: 'Set the site name and base URL' })
  putSettings(@Req() request: Request, @Body() body: InitSettingsDto): Promise<InitSettingsResultDto> {
    return this.init.putSettings(bearerToken(request), body, clientIp(request));
  }
}
