import { type DataSource, type Migration, MigrationExecutor } from 'typeorm';

const MIGRATION_LOCK_KEY = 7_244_151_001;

/**
 * Applies pending migrations, on one connection of their own. On a shared server several
 * instances may start at once, so the run holds a Postgres advisory lock; the embedded engine has
 * a single owner and one connection. A migration may rewrite a large table: the serving
 * process's statement limit does not apply to it.
 */
export async function runPendingMigrations(dataSource: DataSource, shared: boolean): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    if (shared) await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await runner.query('SET statement_timeout = 0');
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    return await executor.executePendingMigrations();
  } finally {
    await runner.query('RESET statement_timeout').catch(() => undefined);
    if (shared) await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
