import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../platform/auth/auth-context';
import { forbidden, notFound } from '../../common/errors/domain-error';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';

/** Who may see and steer a plugin's webhook: its owners, and (unless `ownersOnly`) admins. Unknown slugs are 404. */
@Injectable()
export class PluginAccess {
  constructor(private readonly plugins: PluginsRepository) {}

  async require(auth: AuthContext, slug: string, ownersOnly = false): Promise<PluginEntity> {
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    if (!ownersOnly && auth.user.role === 'admin') return plugin;
    if (!(await this.plugins.isOwner(plugin.id, auth.user.id)))
      throw forbidden(`only the owners of "${slug}"${ownersOnly ? '' : ' and admins'} may do this`);
    return plugin;
  }
}
