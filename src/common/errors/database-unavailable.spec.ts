import { QueryFailedError } from 'typeorm';
import { DatabaseDownError, databaseUnavailability, isDatabaseUnavailable } from './database-unavailable';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a refused or dropped connection and a server shutting down or starting', () => {
    expect(isDatabaseUnavailable(pgError('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], pgError('57P01', 'terminating connection due to administrator command'))),
    ).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], pgError('57P03', 'the database system is starting up')))).toBe(true);
    expect(isDatabaseUnavailable(pgError('08006'))).toBe(true);
  });

  it('knows a transaction whose connection died under it, and a connection refused while the database is known down', () => {
    class QueryRunnerAlreadyReleasedError extends Error {
      override name = 'QueryRunnerAlreadyReleasedError';
    }
    class QueryRunnerProviderAlreadyReleasedError extends Error {
      override name = 'QueryRunnerProviderAlreadyReleasedError';
    }
    expect(databaseUnavailability(new QueryRunnerAlreadyReleasedError('Query runner already released. Cannot run queries anymore.'))).toBe(
      'lost',
    );
    expect(
      databaseUnavailability(
        new QueryRunnerProviderAlreadyReleasedError('Database connection provided by a query runner was already released'),
      ),
    ).toBe('lost');
    expect(databaseUnavailability(new DatabaseDownError('Connection terminated unexpectedly'))).toBe('lost');
    expect(databaseUnavailability(new Error('Connection terminated due to connection timeout'))).toBe('lost');
  });

  it('calls a database that is there but refuses or times out the work busy, not lost', () => {
    expect(
      databaseUnavailability(new QueryFailedError('SELECT', [], pgError('57014', 'canceling statement due to statement timeout'))),
    ).toBe('busy');
    expect(databaseUnavailability(pgError('53300', 'sorry, too many clients already'))).toBe('busy');
    expect(databaseUnavailability(new Error('timeout exceeded when trying to connect'))).toBe('busy');
    expect(isDatabaseUnavailable(pgError('57014'))).toBe(true);
  });

  it('leaves query errors and everything else alone', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], pgError('23505')))).toBe(false);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], pgError('42P01')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
