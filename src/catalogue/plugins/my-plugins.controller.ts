import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { AuthContext } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { MyPluginListDto } from './dto/my-plugin.dto';
import { MyPluginsService } from './my-plugins.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('plugins')
@Controller('api/auth/me/plugins')
@SignedIn()
export class MyPluginsController {
  constructor(private readonly plugins: MyPluginsService) {}

  @Get()
  @ApiOkResponse({ type: MyPluginListDto, description: 'The plugins you own, released or only claimed' })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Not signed in' })
  @ApiOperation({ summary: 'List your plugins' })
  list(@Auth() auth: AuthContext): Promise<MyPluginListDto> {
    return this.plugins.list(auth);
  }
}
