import type { AdminPluginDto, PluginOwnerDto } from './dto/admin-plugin.dto';
import type { PluginEntity } from './entities/plugin.entity';

export function toAdminPluginDto(plugin: PluginEntity, owners: PluginOwnerDto[]): AdminPluginDto {
  return {
    id: plugin.id,
    slug: plugin.slug,
    name: plugin.name,
    repoUrl: plugin.repoUrl,
    repoVerified: plugin.repoVerified,
    verified: plugin.verifiedAt !== null,
    verifiedAt: plugin.verifiedAt?.getTime() ?? null,
    verifiedBy: plugin.verifiedBy,
    featured: plugin.featured,
    latestVersion: plugin.latestVersion,
    latestPrerelease: plugin.latestPrerelease,
    owners,
  };
}
