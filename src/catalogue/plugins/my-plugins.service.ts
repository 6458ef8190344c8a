import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../platform/auth/auth-context';
import type { MyPluginListDto } from './dto/my-plugin.dto';
import { toMyPluginDto } from './my-plugins.mapper';
import { PluginsRepository } from './plugins.repository';

/** The plugins a user owns, for their account page. */
@Injectable()
export class MyPluginsService {
  constructor(private readonly plugins: PluginsRepository) {}

  async list(auth: AuthContext): Promise<MyPluginListDto> {
    const owned = await this.plugins.ownedBy(auth.user.id);
    return { plugins: owned.map(toMyPluginDto) };
  }
}
