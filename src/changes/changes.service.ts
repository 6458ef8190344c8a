import { Injectable } from '@nestjs/common';
import { toChangeDto } from './changes.mapper';
import { ChangesRepository } from './changes.repository';
import { type ChangesPageDto, type ChangesQueryDto, DEFAULT_CHANGES_LIMIT } from './dto/changes.dto';

/** The changes feed: public catalogue changes in commit order, paged by an opaque cursor (the log's seq). */
@Injectable()
export class ChangesService {
  constructor(private readonly events: ChangesRepository) {}

  async page(query: ChangesQueryDto): Promise<ChangesPageDto> {
    const since = BigInt(query.since ?? '0');
    const limit = query.limit ?? DEFAULT_CHANGES_LIMIT;
    // One more than asked tells whether there is more without a count.
    const rows = await this.events.after(since, limit + 1);
    const changes = rows.slice(0, limit).map(toChangeDto);
    return { changes, next: changes.at(-1)?.cursor ?? since.toString(), more: rows.length > limit };
  }
}
