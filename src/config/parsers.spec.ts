import { integer, text } from './parsers';
import { Invalid } from './variable';

describe('parsers', () => {
  it('take digits only for an integer, so a unit or an exponent is refused rather than misread', () => {
    const parser = integer({ min: 0, unit: 'bytes' });
    expect(parser.type).toBe('integer bytes, 0 or more');
    expect(parser.parse(' 1024 ')).toBe(1024);
    for (const raw of ['1e4', '10KB', '-1', '1.5', '99999999999999999999'])
      expect(parser.parse(raw)).toEqual(new Invalid('must be a non-negative integer number of bytes'));
  });

  it('take a secret exactly as given when told not to trim', () => {
    expect(text({ minLength: 4, trim: false }).parse(' ab ')).toBe(' ab ');
    expect(text({ minLength: 4 }).parse(' ab ')).toEqual(new Invalid('must be at least 4 characters'));
  });
});
