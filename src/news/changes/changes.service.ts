import { Injectable } from '@nestjs/common';
import { badRequest } from '../../common/errors/domain-error';
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
    const page = await this.events.page(since, query.limit ?? DEFAULT_CHANGES_LIMIT);
    // Cursors only grow, so one past the newest change was never handed out here: it is another
    // registry's, or this database was restored to an earlier point. Waiting on it would wait forever.
    if (since > BigInt(page.head)) {
      const message = `since: ${since} is past the newest change of this registry's feed (${page.head}); start again from the beginning`;
      throw badRequest('cursor-ahead', message, [{ path: '/since', message }]);
    }
    return changesPageJson(page, since);
  }
}
