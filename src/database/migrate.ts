import type { DataSource, Migration } from 'typeorm';

const MIGRATION_LOCK_KEY = 7_244_151_001;

/**
 * Applies pending migrations. On a shared server several instances may start at once, so the
 * run holds a Postgres advisory lock; the embedded engine has a single owner and one connection.
 */
export async function runPendingMigrations(dataSource: DataSource, shared: boolean): Promise<Migration[]> {
  if (!shared) return dataSource.runMigrations({ transaction: 'each' });
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
