import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { BrandingService } from './branding.service';
import { BrandingDto } from './dto/branding.dto';
import { FeaturesDto } from './dto/features.dto';
import { I18nDto } from './dto/i18n.dto';
import { FeatureFlagsService } from './feature-flags.service';
import { I18nService } from './i18n.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';
import { ApiReadLimited } from '../../openapi/api-problems';

/** What a front end needs to dress itself: branding, languages and which features are on. */
@ApiTags('cms')
@Controller('api')
export class SiteController {
  constructor(
    private readonly branding: BrandingService,
    private readonly i18n: I18nService,
    private readonly features: FeatureFlagsService,
  ) {}

  @Get('branding')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: BrandingDto })
  @ApiOperation({ summary: 'Read the branding' })
  @ApiPublic()
  @ApiReadLimited()
  getBranding(): Promise<BrandingDto> {
    return this.branding.get();
  }

  @Get('i18n')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: I18nDto })
  @ApiOperation({ summary: 'Read the languages' })
  @ApiPublic()
  @ApiReadLimited()
  getI18n(): Promise<I18nDto> {
    return this.i18n.get();
  }

  @Get('features')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: FeaturesDto })
  @ApiOperation({ summary: 'Read the feature flags' })
  @ApiPublic()
  @ApiReadLimited()
  getFeatures(): Promise<FeaturesDto> {
    return this.features.publicFlags();
  }
}
