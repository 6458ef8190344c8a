import { Injectable } from '@nestjs/common';
import { changesPageJson } from './changes.mapper';
import { ChangesRepository } from './changes.repository';
import { type ChangesQueryDto, DEFAULT_CHANGES_LIMIT } from './dto/changes.dto';

/** The changes feed: public catalogue changes in commit order, paged by an opaque cursor (the log's seq). */
@Injectable()
export class ChangesService {
  constructor(private readonly events: ChangesRepository) {}

  /** A ChangesPageDto, as JSON text. */
  async page(query: ChangesQueryDto): Promise<string> {
    const since = BigInt(query.since ?? '0');
    return changesPageJson(await this.events.page(since, query.limit ?? DEFAULT_CHANGES_LIMIT), since);
  }
}
