import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.types';
import { dataSourceOptions } from './data-source-options';
import { openEmbeddedDatabase, type EmbeddedDatabase } from './embedded/embedded-postgres';
import { runPendingMigrations } from './migrate';

/** An initialized DataSource plus whatever hosts it; `close` ends both. */
export interface DatabaseHandle {
  readonly dataSource: DataSource;
  readonly embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `serve` owns the embedded files; operator commands may join a running server. */
  embeddedMode: 'own' | 'own-or-join';
  migrate: boolean;
}

export async function openDatabase(config: AppConfig, options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const embedded = config.databaseUrl
    ? null
    : await openEmbeddedDatabase({
        dataDir: config.dataDir,
        mode: options.embeddedMode,
        analyzeIntervalMs: config.embeddedAnalyzeIntervalMs,
      });
  const dataSource = new DataSource(
    dataSourceOptions(config.databaseUrl ? { url: config.databaseUrl, readUrls: config.databaseReadUrls } : { embedded: embedded!.target }),
  );
  try {
    await dataSource.initialize();
    if (options.migrate) await runPendingMigrations(dataSource, embedded === null);
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    dataSource,
    embedded,
    close() {
      closing ??= (async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
