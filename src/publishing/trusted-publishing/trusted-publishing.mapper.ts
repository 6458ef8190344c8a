import type { ForgeRegistry } from '../../platform/forges/forge-registry';
import type { PendingPublisherDto, TrustedPublisherDto } from './dto/trusted-publisher.dto';
import type { PendingPublisherEntity } from './entities/pending-publisher.entity';
import type { TrustedPublisherEntity } from './entities/trusted-publisher.entity';

/** The repository's web URL on its instance (the instance may since have left FORGES). */
export function repositoryWebUrl(forges: ForgeRegistry, forge: string, repositoryPath: string): string {
  const instance = forges.byName(forge);
  return instance ? `${instance.webUrl}/${repositoryPath}` : repositoryPath;
}

function identityView(row: TrustedPublisherEntity | PendingPublisherEntity, forges: ForgeRegistry) {
  return {
    id: row.id,
    forge: row.forge,
    repository: row.repositoryPath,
    repositoryId: row.repositoryId,
    repoUrl: repositoryWebUrl(forges, row.forge, row.repositoryPath),
    workflow: row.workflow,
    ref: row.refPattern,
    environment: row.environment,
    createdAt: row.createdAt.getTime(),
  };
}

export function toTrustedPublisherDto(row: TrustedPublisherEntity, forges: ForgeRegistry): TrustedPublisherDto {
  return { ...identityView(row, forges), allowYank: row.allowYank };
}

export function toPendingPublisherDto(row: PendingPublisherEntity, forges: ForgeRegistry): PendingPublisherDto {
  return {
    ...identityView(row, forges),
    slug: row.slug,
    status: row.status,
    statusReason: row.statusReason,
    statusChangedAt: row.statusChangedAt?.getTime() ?? null,
  };
}
