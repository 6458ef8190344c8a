import type { MigrationInterface } from 'typeorm';
import { Foundation1795256007857 } from './1795256007857-Foundation';

/** Every migration in order; committed files, never generated at run time. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [Foundation1795256007857];
