import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.types';
import { ReadReplicas } from '../persistence/read-replicas';
import { DatabaseAvailability, DEFAULT_AVAILABILITY_OPTIONS } from './database-availability';
import { dataSourceOptions, replicaDataSourceOptions, UNLIMITED_STATEMENTS, type ConnectionLimits } from './data-source-options';
import { openEmbeddedDatabase, type EmbeddedDatabase } from './embedded/embedded-postgres';
import { runPendingMigrations } from './migrate';

/** An initialized DataSource plus whatever hosts it; `close` ends both. */
export interface DatabaseHandle {
  readonly dataSource: DataSource;
  readonly embedded: EmbeddedDatabase | null;
  /** DATABASE_READ_URLS, not connected until the server starts probing them (never for operator commands). */
  readonly replicas: ReadReplicas;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `serve` owns the embedded files; operator commands may join a running server. */
  embeddedMode: 'own' | 'own-or-join';
  migrate: boolean;
  /**
   * A serving process: its statements are bounded (DATABASE_STATEMENT_TIMEOUT_MS) and it tracks
   * the primary's availability, saying so through `say`. Operator commands run unbounded.
   */
  serving?: { say: (level: 'warn' | 'log', message: string) => void };
}

export async function openDatabase(config: AppConfig, options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const embedded = config.databaseUrl
    ? null
    : await openEmbeddedDatabase({
        dataDir: config.dataDir,
        mode: options.embeddedMode,
        analyzeIntervalMs: config.embeddedAnalyzeIntervalMs,
        sharedBuffersMb: config.embeddedSharedBuffersMb ?? undefined,
      });
  const availability = options.serving ? new DatabaseAvailability({ ...DEFAULT_AVAILABILITY_OPTIONS, say: options.serving.say }) : null;
  const limits: ConnectionLimits = availability
    ? {
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
        clientClass: availability.clientClass(),
      }
    : UNLIMITED_STATEMENTS;
  const dataSource = new DataSource(
    dataSourceOptions(config.databaseUrl ? { url: config.databaseUrl } : { embedded: embedded!.target }, limits),
  );
  const replicas = new ReadReplicas(config.databaseUrl ? config.databaseReadUrls : [], {
    probeIntervalMs: config.databaseReadProbeIntervalMs,
    dataSourceOptions: replicaDataSourceOptions,
  });
  try {
    await dataSource.initialize();
    if (options.migrate) await runPendingMigrations(dataSource, embedded === null);
  } catch (error) {
    availability?.close();
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    dataSource,
    embedded,
    replicas,
    close() {
      closing ??= (async () => {
        availability?.close();
        await replicas.close();
        if (dataSource.isInitialized) await dataSource.destroy();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
