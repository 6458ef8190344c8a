import { environmentWithDotenv, loadConfig } from '../config/config';
import { ConfigError } from '../config/config.error';
import type { AppConfig } from '../config/config.types';
import { openDatabase, type DatabaseHandle } from '../database/database-handle';
import type { CliIo } from './command';
import { EXIT_USAGE } from './command';

/**
 * Operator commands reach the database the way the running server does: a real server by URL,
 * or the embedded engine, joining the running server's socket when one owns the files.
 */
export async function withOperatorDatabase(
  io: CliIo,
  options: { migrate: boolean },
  work: (database: DatabaseHandle, config: AppConfig) => Promise<number>,
): Promise<number> {
  let config: AppConfig;
  try {
    config = loadConfig(environmentWithDotenv(io.env, io.cwd), { persistSecrets: true });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  const database = await openDatabase(config, { embeddedMode: 'own-or-join', migrate: options.migrate });
  try {
    return await work(database, config);
  } finally {
    await database.close();
  }
}
