import type { RequestDto } from './dto/request.dto';
import type { PluginRequestEntity } from './entities/plugin-request.entity';

export function toRequestDto(request: PluginRequestEntity, voted: boolean): RequestDto {
  return {
    id: request.id,
    title: request.title,
    description: request.description,
    kind: request.kind,
    votes: request.votes,
    voted,
    status: request.status,
    plugin: request.plugin?.slug ?? null,
    createdAt: request.createdAt.getTime(),
  };
}
