import type { CliIo } from '../command';
import { EXIT_USAGE } from '../command';

export const summary = 'apply pending database migrations (works while the server runs)';

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help')) {
    io.stdout('usage: registry migrate [--status]\n\n  --status  list applied and pending migrations without applying any\n');
    return 0;
  }
  const unknown = args.filter((a) => a !== '--status');
  if (unknown.length) {
    io.stderr(`registry migrate: unknown option '${unknown[0]}'\n`);
    return EXIT_USAGE;
  }
  await import('reflect-metadata');
  const { withOperatorDatabase } = await import('../operator-database');
  const { runPendingMigrations } = await import('../../database/migrate');
  return withOperatorDatabase(io, { migrate: false }, async (database) => {
    const { dataSource, embedded } = database;
    if (args.includes('--status')) {
      const pending = await dataSource.showMigrations();
      io.stdout(pending ? 'migrations pending\n' : 'all migrations applied\n');
      return 0;
    }
    const applied = await runPendingMigrations(dataSource, embedded === null);
    io.stdout(applied.length ? applied.map((m) => `applied ${m.name}\n`).join('') : 'no pending migrations\n');
    return 0;
  });
}
