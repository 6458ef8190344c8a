import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface ReadinessReport {
  ready: boolean;
  database: 'up' | 'down';
  migrations: 'applied' | 'pending' | 'unknown';
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

  constructor(private readonly dataSource: DataSource) {}

  async readiness(): Promise<ReadinessReport> {
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), CHECK_TIMEOUT_MS);
    } catch {
      return { ready: false, database: 'down', migrations: 'unknown' };
    }
    if (!this.migrationsApplied) {
      try {
        this.migrationsApplied = !(await withTimeout(this.dataSource.showMigrations(), CHECK_TIMEOUT_MS));
      } catch {
        return { ready: false, database: 'up', migrations: 'unknown' };
      }
    }
    return { ready: this.migrationsApplied, database: 'up', migrations: this.migrationsApplied ? 'applied' : 'pending' };
  }
}
