import { freePort } from './free-port';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { createApp } from '../../src/app.factory';
import { createLogger } from '../../src/common/logging/logger';
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

/** Boots the real AppModule on its own fresh database, listening on a loopback port. */
export async function startTestApp(env: Record<string, string> = {}, testDatabase?: TestDatabase, logger?: Logger): Promise<TestApp> {
  const db = testDatabase ?? (await createTestDatabase());
  // A real port up front, so BASE_URL and the absolute links built from it (downloads) work.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...db.env, ...env });
  const database = await openDatabase(config, { embeddedMode: 'own', migrate: true });
  const app = await createApp({ config, database, logger: logger ?? createLogger('silent') });
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
