import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadReplicas, type ReplicaStatus } from '../../persistence/read-replicas';

export interface ReadinessReport {
  ready: boolean;
  database: 'up' | 'down';
  migrations: 'applied' | 'pending' | 'unknown';
  /** DATABASE_READ_URLS only. A replica that is down leaves the instance ready: its reads go to the primary. */
  replicas?: ReplicaStatus[];
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

@Injectable()
export class HealthService {
  /** Once every migration is seen applied it stays so for this process's code. */
  private migrationsApplied = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly replicas: ReadReplicas,
  ) {}

  async readiness(): Promise<ReadinessReport> {
    const replicas = this.replicas.configured ? { replicas: this.replicas.statuses() } : {};
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), CHECK_TIMEOUT_MS);
    } catch {
      return { ready: false, database: 'down', migrations: 'unknown', ...replicas };
    }
    if (!this.migrationsApplied) {
      try {
        this.migrationsApplied = !(await withTimeout(this.dataSource.showMigrations(), CHECK_TIMEOUT_MS));
      } catch {
        return { ready: false, database: 'up', migrations: 'unknown', ...replicas };
      }
    }
    return { ready: this.migrationsApplied, database: 'up', migrations: this.migrationsApplied ? 'applied' : 'pending', ...replicas };
  }
}
