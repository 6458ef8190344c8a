import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { createApp } from './app.factory';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { APP_VERSION } from './common/app-info';
import { drainHttp } from './common/http/http-drain';
import { IdleCollector, processIdleCollectorParts } from './common/idle-collector';
import { createLogger, resolveLogFormat } from './common/logging/logger';
import { environmentWithDotenv, loadConfig, type Environment } from './config/config';
import { ConfigError } from './config/config.error';
import type { AppConfig } from './config/config.types';
import { openDatabase } from './database/database-handle';
import { StrayErrors } from './common/stray-errors';
import { Metrics } from './platform/metrics/metrics';

export interface RunningServer {
  app: NestExpressApplication;
  config: AppConfig;
  logger: Logger;
  url: string;
  close(): Promise<void>;
}

/** Where the data lives, for the start banner: never a password. */
function databaseLocation(config: AppConfig): string {
  if (!config.databaseUrl) return `embedded PostgreSQL (PGlite) in ${join(config.dataDir, 'pg')}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/**
 * The embedded default runs the registry and its database in one process with a budget of 400 MiB
 * under load. V8 lets the old generation grow to up to four times what survived the last full
 * collection while allocation is fast: under the catalogue benchmark the heap reached 390 MB
 * holding 120 MB, the process 590 MiB. At 1.5 times it stayed near 150 MB (the process ~380 MiB),
 * with no throughput lost that the benchmark could see (more, smaller collections).
 */
function keepHeapCompact(config: AppConfig): void {
  if (!config.databaseUrl) setFlagsFromString('--heap-growing-percent=50');
}

/** Reads configuration, opens (and migrates) the database, and serves HTTP until closed. */
export async function startServer(env: Environment, cwd: string, logger?: Logger): Promise<RunningServer> {
  const config = loadConfig(environmentWithDotenv(env, cwd), { persistSecrets: true });
  keepHeapCompact(config);
  const log = logger ?? createLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat));
  const database = await openDatabase(config, {
    embeddedMode: 'own',
    migrate: config.migrateOnStart,
    serving: {
      say: (level, message) => (level === 'warn' ? log.warn({ context: 'Database' }, message) : log.info({ context: 'Database' }, message)),
    },
  });
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
  log.info({ port, url: config.baseUrl }, `registry ${APP_VERSION} listening on ${config.baseUrl} (port ${port})`);
  log.info(`API reference: ${config.baseUrl}/openapi`);
  log.info(`database: ${databaseLocation(config)}`);
  const idleCollector = new IdleCollector(processIdleCollectorParts());
  idleCollector.start(config.idleCollectIntervalMs);
  let closing: Promise<void> | null = null;
  return {
    app,
    config,
    logger: log,
    url: `http://127.0.0.1:${port}`,
    close() {
      closing ??= (async () => {
        idleCollector.stop();
        // Requests first: workers and counters stop only once nothing can reach them anymore.
        const drained = await drainHttp(app.getHttpServer(), config.shutdownGraceMs);
        if (drained === 'cut') log.warn(`requests still running after SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms) were cut`);
        // Stops the webhook and re-signing workers (the ingest under way finishes), flushes
        // download counts, closes Redis; then the pool.
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
  // Only a failure during start-up ends the process; from here on a stray error is logged and counted.
  const metrics = server.app.get(Metrics);
  const stopCatching = new StrayErrors(server.logger, (source) => metrics.observeStrayError(source)).catchProcessWide();
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  server.logger.info(`${signal}: finishing in-flight requests and stopping`);
  await server.close();
  stopCatching();
  server.logger.info('stopped');
  return 0;
}
