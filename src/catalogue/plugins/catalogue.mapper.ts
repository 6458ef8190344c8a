import type { CatalogueItemDto } from './dto/catalogue.dto';
import type { PluginEntity } from './entities/plugin.entity';
import { imageUrl, LIST_ICON_WIDTH } from './served-images';

export function toCatalogueItemDto(plugin: PluginEntity): CatalogueItemDto {
  return {
    id: plugin.id,
    slug: plugin.slug,
    name: plugin.name,
    description: plugin.description,
    category: plugin.category,
    kind: plugin.kind,
    tags: plugin.tags,
    license: plugin.license,
    icon: plugin.icon,
    images: plugin.iconImage ? { icon: { url: imageUrl(plugin.iconImage), width: LIST_ICON_WIDTH, height: LIST_ICON_WIDTH } } : {},
    latestVersion: plugin.latestVersion,
    latestPrerelease: plugin.latestPrerelease,
    createdAt: plugin.createdAt.getTime(),
    updatedAt: plugin.updatedAt.getTime(),
    downloads: Number(plugin.downloads),
    featured: plugin.featured,
    verified: plugin.verifiedAt !== null,
    verifiedAt: plugin.verifiedAt?.getTime() ?? null,
    extensions: plugin.extensions,
    repoUrl: plugin.repoUrl,
    deprecated: plugin.deprecatedAt
      ? { message: plugin.deprecationMessage ?? '', replacement: plugin.deprecatedReplacement, since: plugin.deprecatedAt.getTime() }
      : null,
  };
}
