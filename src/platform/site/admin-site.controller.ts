import { Body, Controller, Patch, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../auth/auth-context';
import { AdminOnly, Auth } from '../auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { BrandingService } from './branding.service';
import { BrandingDto, UpdateBrandingDto } from './dto/branding.dto';
import { FeaturesDto, UpdateFeaturesDto } from './dto/features.dto';
import { I18nDto, UpdateI18nDto } from './dto/i18n.dto';
import { FeatureFlagsService } from './feature-flags.service';
import { I18nService } from './i18n.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin')
@AdminOnly()
export class AdminSiteController {
  constructor(
    private readonly branding: BrandingService,
    private readonly i18n: I18nService,
    private readonly features: FeatureFlagsService,
  ) {}

  @Patch('branding')
  @ApiOkResponse({ type: BrandingDto, description: 'The new branding (audited branding.update with before and after)' })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Change the branding' })
  updateBranding(@Auth() auth: AuthContext, @Body() body: UpdateBrandingDto, @Req() request: Request): Promise<BrandingDto> {
    return this.branding.update(body, { userId: auth.user.id, ip: clientIp(request) });
  }

  @Patch('i18n')
  @ApiOkResponse({ type: I18nDto, description: 'The new languages (audited i18n.update with before and after)' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'A bad locale code, or a default that is not among the locales' })
  @ApiOperation({ summary: 'Change the languages' })
  updateI18n(@Auth() auth: AuthContext, @Body() body: UpdateI18nDto, @Req() request: Request): Promise<I18nDto> {
    return this.i18n.update(body, { userId: auth.user.id, ip: clientIp(request) });
  }

  @Patch('features')
  @ApiOkResponse({ type: FeaturesDto, description: 'Every flag after the change (audited features.update with before and after)' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'An unknown flag, or a value that is not true or false' })
  @ApiOperation({ summary: 'Turn features on or off' })
  updateFeatures(@Auth() auth: AuthContext, @Body() body: UpdateFeaturesDto, @Req() request: Request): Promise<FeaturesDto> {
    return this.features.update(body, { userId: auth.user.id, ip: clientIp(request) });
  }
}
