import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { ForgeRegistry } from '../forges/forge-registry';
import type { AuthContext } from './auth-context';
import { SessionService } from './session.service';
import { toUserDto } from '../users/users.mapper';
import type { UserDto } from '../users/dto/user.dto';
import type { ProviderListDto } from './dto/provider.dto';
import { callbackUrl, toProviderDto } from './providers.mapper';

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly forges: ForgeRegistry,
  ) {}

  me(auth: AuthContext): UserDto {
    return toUserDto(auth.user);
  }

  async logout(auth: AuthContext): Promise<void> {
    if (auth.kind === 'session') await this.sessions.logout(auth.sessionId);
  }

  /** The live instances with OAuth credentials, for a sign-in page's buttons (one added a moment ago on any server included). */
  async providers(): Promise<ProviderListDto> {
    await this.forges.refresh();
    return {
      providers: this.forges.signInCapable().map((forge) => toProviderDto(forge, this.config.baseUrl)),
      callbackUrlTemplate: callbackUrl(this.config.baseUrl, '{name}'),
    };
  }
}
