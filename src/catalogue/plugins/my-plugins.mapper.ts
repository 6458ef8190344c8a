import { toCatalogueItemDto } from './catalogue.mapper';
import type { MyPluginDto } from './dto/my-plugin.dto';
import type { PluginEntity } from './entities/plugin.entity';

export function toMyPluginDto(plugin: PluginEntity): MyPluginDto {
  return {
    slug: plugin.slug,
    name: plugin.name,
    description: plugin.description,
    latestVersion: plugin.latestVersion,
    repoUrl: plugin.repoUrl,
    verified: plugin.verifiedAt !== null,
    featured: plugin.featured,
    deprecated: toCatalogueItemDto(plugin).deprecated,
    createdAt: plugin.createdAt.getTime(),
    updatedAt: plugin.updatedAt.getTime(),
  };
}
