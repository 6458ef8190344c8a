import { ConfigError } from './config.error';
import { commaList, integer, text } from './parsers';
import { EnvironmentReader, Invalid } from './variable';

const LIMIT = { name: 'LIMIT', parser: integer({ min: 1, max: 10, unit: 'seconds' }), default: '5', description: 'A limit.' };
const NAMES = {
  name: 'NAMES',
  parser: commaList('names', (entry) => (/^[a-z]+$/.test(entry) ? entry : new Invalid(`"${entry}" is not a name`))),
  default: '',
  description: 'Names.',
};
const LABEL = { name: 'LABEL', parser: text({ maxLength: 3 }), unset: 'none', description: 'A label.' };

describe('EnvironmentReader', () => {
  it('reads an unset or blank variable as its declared default, through the same parser', () => {
    const reader = new EnvironmentReader({ LIMIT: '  ' });
    expect(reader.read(LIMIT)).toBe(5);
    expect(reader.read(NAMES)).toEqual([]);
    expect(reader.read(LABEL)).toBeUndefined();
    expect(() => reader.check()).not.toThrow();
  });

  it('keeps every problem, each under its variable, and throws them together', () => {
    const reader = new EnvironmentReader({ LIMIT: '11', NAMES: 'ok, Bad,2', LABEL: 'long' });
    expect(reader.read(LIMIT)).toBe(5);
    expect(reader.read(NAMES)).toEqual([]);
    expect(reader.read(LABEL)).toBeUndefined();
    let error: unknown;
    try {
      reader.check();
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      { variable: 'LIMIT', message: 'must be an integer number of seconds from 1 to 10' },
      { variable: 'NAMES', message: '"Bad" is not a name' },
      { variable: 'NAMES', message: '"2" is not a name' },
      { variable: 'LABEL', message: 'must be at most 3 characters' },
    ]);
  });

  it('refuses a declared default its own parser does not take, as a mistake in the code', () => {
    const reader = new EnvironmentReader({});
    expect(() => reader.read({ ...LIMIT, default: '60s' })).toThrow(`LIMIT's declared default "60s" does not parse`);
  });
});
