import { QueryFailedError } from 'typeorm';

const UNIQUE_VIOLATION = '23505';

/** The unique constraint a failed statement broke (its name, or `unknown`), or null when it failed otherwise. */
export function uniqueViolation(error: unknown): string | null {
  if (!(error instanceof QueryFailedError)) return null;
  const driver = (error as QueryFailedError & { driverError?: { code?: string; constraint?: string } }).driverError;
  return driver?.code === UNIQUE_VIOLATION ? (driver.constraint ?? 'unknown') : null;
}
