import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/** What the scrape reads from the database and its driver. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Deliveries still to do, by status (finished ones are history, not queue). */
  async deliveriesByStatus(): Promise<Record<string, number>> {
    const rows = (await this.dataSource.query(
      `SELECT s.status, count(d.id)::int AS n FROM unnest(ARRAY['queued', 'processing']) AS s(status) LEFT JOIN webhook_delivery d ON d.status = s.status GROUP BY s.status`,
    )) as { status: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  }

  /** The pg pool behind TypeORM (node-postgres `Pool`). */
  pool(): { total: number; idle: number; waiting: number; max: number } | null {
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    if (!pool || typeof pool.totalCount !== 'number') return null;
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 0 };
  }
}
