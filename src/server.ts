import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { createApp } from './app.factory';
import { createLogger } from './common/logging/logger';
import { environmentWithDotenv, loadConfig, type Environment } from './config/config';
import { ConfigError } from './config/config.error';
import type { AppConfig } from './config/config.types';
import { openDatabase } from './database/database-handle';

export interface RunningServer {
  app: NestExpressApplication;
  config: AppConfig;
  url: string;
  close(): Promise<void>;
}

/** Reads configuration, opens (and migrates) the database, and serves HTTP until closed. */
export async function startServer(env: Environment, cwd: string, logger?: Logger): Promise<RunningServer> {
  const config = loadConfig(environmentWithDotenv(env, cwd), { persistSecrets: true });
  const log = logger ?? createLogger(config.logLevel);
  const database = await openDatabase(config, { embeddedMode: 'own', migrate: config.migrateOnStart });
  let app: NestExpressApplication;
  try {
    app = await createApp({ config, database, logger: log });
    await app.listen(config.port);
  } catch (error) {
    await database.close();
    throw error;
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, database: config.databaseUrl ? 'postgres' : 'embedded', dataDir: config.dataDir }, 'registry listening');
  let closing: Promise<void> | null = null;
  return {
    app,
    config,
    url: `http://127.0.0.1:${port}`,
    close() {
      closing ??= (async () => {
        await app.close();
        await database.close();
      })();
      return closing;
    },
  };
}

/** Runs until SIGINT/SIGTERM, then closes HTTP and the database in order. */
export async function serveUntilSignalled(env: Environment, cwd: string, write: (text: string) => void): Promise<number> {
  let server: RunningServer;
  try {
    server = await startServer(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) {
      write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}
