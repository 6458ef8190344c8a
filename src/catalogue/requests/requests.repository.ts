import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { PluginRequestVoteEntity } from './entities/plugin-request-vote.entity';
import { PluginRequestEntity, type RequestStatus } from './entities/plugin-request.entity';

export interface RequestPageQuery {
  status?: RequestStatus;
  sort: 'votes' | 'new';
  page: number;
  limit: number;
}

export type NewRequest = Pick<PluginRequestEntity, 'title' | 'description' | 'kind' | 'createdBy'>;

/** Every query on wishlist requests and their votes. */
export class RequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PluginRequestEntity);
  }

  /** One page of requests, each with the slug of the plugin that fulfilled it (the plugin's id and slug only). */
  async page(query: RequestPageQuery, manager?: EntityManager): Promise<{ requests: PluginRequestEntity[]; total: number }> {
    const qb = this.repo(manager).createQueryBuilder('r').leftJoin('r.plugin', 'p').addSelect(['p.id', 'p.slug']);
    if (query.status) qb.where('r.status = :status', { status: query.status });
    if (query.sort === 'votes') qb.orderBy('r.votes', 'DESC').addOrderBy('r.createdAt', 'DESC');
    else qb.orderBy('r.createdAt', 'DESC');
    qb.addOrderBy('r.id', 'DESC')
      .offset((query.page - 1) * query.limit)
      .limit(query.limit);
    const [requests, total] = await qb.getManyAndCount();
    return { requests, total };
  }

  findWithPlugin(id: string, manager?: EntityManager): Promise<PluginRequestEntity | null> {
    return this.repo(manager)
      .createQueryBuilder('r')
      .leftJoin('r.plugin', 'p')
      .addSelect(['p.id', 'p.slug'])
      .where('r.id = :id', { id })
      .getOne();
  }

  /** Which of `requestIds` the user voted for. */
  async votedBy(userId: string, requestIds: string[], manager?: EntityManager): Promise<Set<string>> {
    if (requestIds.length === 0) return new Set();
    const votes = await (manager ?? this.dataSource.manager)
      .getRepository(PluginRequestVoteEntity)
      .find({ select: { requestId: true }, where: { userId, requestId: In(requestIds) } });
    return new Set(votes.map((v) => v.requestId));
  }

  async insert(request: NewRequest): Promise<PluginRequestEntity> {
    const repo = this.repo();
    // A new request fulfils no plugin yet: the saved row is the whole answer.
    return repo.save(repo.create({ ...request, status: 'open', votes: 0, pluginId: null }));
  }

  /** Runs `work` with the request's row locked (null when there is no such request): votes and status changes on it take turns. */
  withRequestLocked<T>(id: string, work: (request: PluginRequestEntity | null, manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const request = await this.repo(manager).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      return work(request, manager);
    });
  }

  /** Adds the user's vote and recounts; false when the user had voted already. */
  async addVote(requestId: string, userId: string, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(PluginRequestVoteEntity)
      .values({ requestId, userId })
      .orIgnore()
      .returning(['request_id'])
      .execute();
    const added = (result.raw as unknown[]).length > 0;
    if (added) await this.recount(requestId, manager);
    return added;
  }

  /** Removes the user's vote and recounts; false when there was none. */
  async removeVote(requestId: string, userId: string, manager: EntityManager): Promise<boolean> {
    const result = await manager.getRepository(PluginRequestVoteEntity).delete({ requestId, userId });
    const removed = (result.affected ?? 0) > 0;
    if (removed) await this.recount(requestId, manager);
    return removed;
  }

  /** The stored count is derived from the vote rows, under the request's row lock, so it is exact. */
  private async recount(requestId: string, manager: EntityManager): Promise<void> {
    await manager.query(
      'UPDATE plugin_request SET votes = (SELECT count(*) FROM plugin_request_vote WHERE request_id = $1) WHERE id = $1',
      [requestId],
    );
  }

  async setStatus(id: string, status: RequestStatus, pluginId: string | null, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { status, pluginId });
  }

  countOpen(manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy({ status: 'open' });
  }
}
