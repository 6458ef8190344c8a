import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { MirrorFailureEntity } from './entities/mirror-failure.entity';
import { MirrorStateEntity } from './entities/mirror-state.entity';

/** Session advisory lock held by the one instance that follows upstream (7_244_151_0xx: this app's keys). */
const MIRROR_FOLLOWER_LOCK = 7_244_151_041;
/** The follower connection's statements (the lock query, its liveness probe) give up after this long. */
const FOLLOWER_STATEMENT_TIMEOUT = '5s';

/**
 * Thrown inside an apply transaction when the cursor is no longer where this pass read it from:
 * another instance took over and moved it. The transaction rolls back; the pass is abandoned.
 */
export class CursorMovedError extends Error {
  constructor(readonly expected: string | null) {
    super(`the mirror cursor moved away from ${expected ?? 'the beginning'} (another instance follows upstream now)`);
  }
}

/** The mirror's own bookkeeping: its place in upstream's feed and the releases it refused. */
export class MirrorRepository {
  /** The connection holding MIRROR_FOLLOWER_LOCK, while this instance holds it. */
  private follower: QueryRunner | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * True while this instance is the one that follows upstream: it holds (or now takes) a
   * session-level advisory lock on a connection of its own, kept out of the pool. Another
   * instance on the same database gets false until the holder lets go or dies (its connection
   * closes, and PostgreSQL frees the lock). A connection that stopped answering is destroyed,
   * never handed back to the pool with the lock on it.
   */
  async holdFollowerLock(): Promise<boolean> {
    if (this.follower) {
      try {
        await this.follower.query('SELECT 1');
        return true;
      } catch (error) {
        await this.dropFollower(error as Error);
      }
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      // Bounded: a lock query on a connection that stopped answering must not hold the poll up.
      await runner.query(`SET statement_timeout = '${FOLLOWER_STATEMENT_TIMEOUT}'`);
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIRROR_FOLLOWER_LOCK])) as {
        locked: boolean;
      }[];
      if (locked) {
        this.follower = runner;
        return true;
      }
      await runner.query('RESET statement_timeout');
      await runner.release();
      return false;
    } catch (error) {
      const failed = runner as QueryRunner & { releasePostgresConnection?: (error: Error) => Promise<void> };
      // Never back to the pool with the session's timeout (or a half-answered query) on it.
      await (failed.releasePostgresConnection ? failed.releasePostgresConnection(error as Error) : failed.release()).catch(() => undefined);
      throw error;
    }
  }

  /** Lets another instance follow (at shutdown). */
  async releaseFollowerLock(): Promise<void> {
    if (!this.follower) return;
    try {
      await this.follower.query('SELECT pg_advisory_unlock($1)', [MIRROR_FOLLOWER_LOCK]);
      await this.follower.query('RESET statement_timeout');
      await this.follower.release();
      this.follower = null;
    } catch (error) {
      await this.dropFollower(error as Error);
    }
  }

  private async dropFollower(error: Error): Promise<void> {
    const runner = this.follower as (QueryRunner & { releasePostgresConnection?: (error: Error) => Promise<void> }) | null;
    this.follower = null;
    // Released with an error, the pool closes the connection (and the session's lock with it).
    await (runner?.releasePostgresConnection ? runner.releasePostgresConnection(error) : runner?.release())?.catch(() => undefined);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  private state(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(MirrorStateEntity);
  }

  private failures(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(MirrorFailureEntity);
  }

  findState(): Promise<MirrorStateEntity | null> {
    return this.state().findOneBy({ id: 1 });
  }

  /** The cursor to read from for this upstream: null (the beginning) when none, or kept for another upstream. */
  async cursorFor(upstream: string): Promise<string | null> {
    const row = await this.findState();
    return row && row.upstream === upstream ? row.cursor : null;
  }

  /**
   * The cursor a pass starts from, after making sure the state row is this upstream's (pointed at
   * another upstream, it starts again from the beginning), so every move can be fenced on it.
   */
  async startPass(upstream: string): Promise<string | null> {
    await this.dataSource.query(
      `INSERT INTO mirror_state (id, upstream, cursor) VALUES (1, $1, NULL)
       ON CONFLICT (id) DO UPDATE SET upstream = EXCLUDED.upstream, cursor = NULL WHERE mirror_state.upstream IS DISTINCT FROM EXCLUDED.upstream`,
      [upstream],
    );
    return this.cursorFor(upstream);
  }

  /**
   * Moves the cursor from `from` to `to`, in the transaction that applied the change it follows;
   * fenced: when the cursor is no longer `from` (another instance took over and moved it), throws
   * CursorMovedError so that transaction writes nothing. With `to` equal to `from`, only the fence
   * (and the row lock, until the transaction ends).
   */
  async moveCursor(upstream: string, from: string | null, to: string | null, manager: EntityManager): Promise<void> {
    const moved = await this.state(manager)
      .createQueryBuilder()
      .update()
      .set({ cursor: to })
      .where('id = 1 AND upstream = :upstream AND cursor IS NOT DISTINCT FROM CAST(:from AS varchar)', { upstream, from })
      .execute();
    if (!moved.affected) throw new CursorMovedError(from);
  }

  async savePoll(upstream: string, at: Date, error: string | null): Promise<void> {
    const row = await this.findState();
    if (row && row.upstream === upstream) await this.state().update({ id: 1 }, { lastPollAt: at, lastError: error });
    else await this.state().upsert({ id: 1, upstream, cursor: null, lastPollAt: at, lastError: error }, ['id']);
  }

  async addFailure(failure: Omit<MirrorFailureEntity, 'id'>, manager: EntityManager): Promise<void> {
    await this.failures(manager).insert(failure);
  }

  /** The newest refusals first. */
  recentFailures(limit: number): Promise<MirrorFailureEntity[]> {
    return this.failures().find({ order: { failedAt: 'DESC' }, take: limit });
  }

  countFailures(): Promise<number> {
    return this.failures().count();
  }
}
