import type { MigrationInterface } from 'typeorm';
import { Foundation1795256007857 } from './1795256007857-Foundation';
import { Identity1795256490940 } from './1795256490940-Identity';
import { SigningKeys1795256564852 } from './1795256564852-SigningKeys';
import { Catalogue1795256824766 } from './1795256824766-Catalogue';

/** Every migration in order; committed files, never generated at run time. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [Foundation1795256007857, Identity1795256490940, SigningKeys1795256564852, Catalogue1795256824766];
