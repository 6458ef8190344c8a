import type { KindDto } from './dto/kind.dto';
import type { KindEntity } from './entities/kind.entity';

export function toKindDto(kind: KindEntity): KindDto {
  return { key: kind.key, label: kind.label, description: kind.description, extensionFields: kind.extensionFields };
}
