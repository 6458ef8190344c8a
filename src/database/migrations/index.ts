import type { MigrationInterface } from 'typeorm';
import { Foundation1795256007857 } from './1795256007857-Foundation';
import { Identity1795256490940 } from './1795256490940-Identity';

/** Every migration in order; committed files, never generated at run time. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [Foundation1795256007857, Identity1795256490940];
