import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a refused or dropped connection and a server shutting down or starting', () => {
    expect(isDatabaseUnavailable(pgError('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], pgError('57P01', 'terminating connection due to administrator command')))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], pgError('57P03', 'the database system is starting up')))).toBe(true);
    expect(isDatabaseUnavailable(pgError('08006'))).toBe(true);
  });

  it('leaves query errors and everything else alone', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], pgError('23505')))).toBe(false);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], pgError('42P01')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
