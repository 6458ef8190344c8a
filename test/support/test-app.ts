import { reservePort } from './free-port';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { Test } from '@nestjs/testing';
import { assembleApp, caseSensitiveExpress, createApp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/common/clock';

import { createLogger, PinoLoggerService } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import type { AppConfig } from '../../src/config/config.types';
import { openDatabase, type DatabaseHandle } from '../../src/database/database-handle';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  database: DatabaseHandle;
  testDatabase: TestDatabase;
  /** http://127.0.0.1:<port> of the listening app. */
  url: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Replaces the application's clock (the whole app, catalogue lane and response cache included, reads it). */
  clock?: Clock;
}

/** Boots the real AppModule on its own fresh database, listening on a loopback port. */
export async function startTestApp(
  env: Record<string, string> = {},
  testDatabase?: TestDatabase,
  logger?: Logger,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const db = testDatabase ?? (await createTestDatabase());
  // A real port up front, so BASE_URL and the absolute links built from it (downloads) work; held
  // until the app listens, which is seconds later.
  const reserved = env.PORT ? null : await reservePort();
  const port = env.PORT ? Number(env.PORT) : reserved!.port;
  const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...db.env, ...env });
  let database: DatabaseHandle;
  let app: NestExpressApplication;
  try {
    const log = logger ?? createLogger('silent');
    // As `serve` opens it: statements bounded, the database's availability tracked.
    database = await openDatabase(config, {
      embeddedMode: 'own',
      migrate: true,
      serving: { say: (level, message) => (level === 'warn' ? log.warn(message) : log.info(message)) },
    });
    app = options.clock ? await withClock(options.clock, config, database, log) : await createApp({ config, database, logger: log });
  } finally {
    await reserved?.release();
  }
  await app.listen(port, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    config,
    database,
    testDatabase: db,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      await database.close();
      if (!testDatabase) await db.drop();
    },
  };
}

/** createApp with the clock replaced: the same module, pipeline and lane. */
async function withClock(clock: Clock, config: AppConfig, database: DatabaseHandle, logger: Logger): Promise<NestExpressApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, database)] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(caseSensitiveExpress(), {
    logger: new PinoLoggerService(logger),
    bodyParser: false,
    abortOnError: false,
  });
  return assembleApp(app, config, logger);
}
