import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { REQUEST_VALIDATOR_OPTIONS } from '../../common/errors/validation';
import { CatalogueQueryPipe, readPlainly, wantsFacets } from './catalogue-query.pipe';
import { CatalogueQueryDto } from './dto/catalogue.dto';

/** Values at and around every rule's edges, in the shapes a query string gives (arrays for repeats). */
const EDGES: Record<string, unknown[]> = {
  search: ['', 'git', 'a'.repeat(100), 'a'.repeat(101), '😀'.repeat(50), '😀'.repeat(51), 'é'.repeat(100), ['git', 'lint']],
  category: ['Editors', 'c'.repeat(40), 'c'.repeat(41), ''],
  tag: ['lint', 't'.repeat(30), 't'.repeat(31), ['a', 'b']],
  kind: ['theme', 'k'.repeat(40), 'k'.repeat(41)],
  featured: ['1', '0', '', 'true', ['1', '1']],
  verified: ['1', '01', ' 1'],
  sort: ['updated', 'new', 'name', 'featured', 'relevance', 'NAME', ''],
  page: ['1', '100000', '100001', '0', '007', '1e3', '-1', '1.5', '', '999999999', '1234567890', ['1', '2']],
  limit: ['1', '20', '100', '101', '0', ' 20', '0x10'],
  facets: ['1', 'true', '0', 'false', 'yes', 'TRUE', '', ['1', '1']],
  bogus: ['1'],
  __proto__: ['x'],
  constructor: ['x'],
  toString: ['x'],
};

/** What the validator alone makes of `named`: the DTO, or null when it refuses it. */
async function validatorReading(named: Record<string, unknown>): Promise<CatalogueQueryDto | null> {
  const dto = plainToInstance(CatalogueQueryDto, named);
  return (await validate(dto, REQUEST_VALIDATOR_OPTIONS)).length ? null : dto;
}

function* queries(): Generator<Record<string, unknown>> {
  const names = Object.keys(EDGES);
  for (const name of names) for (const value of EDGES[name]) yield queryOf([[name, value]]);
  // Pairs and triples of parameters, each value in turn (a fixed walk, the same on every run).
  let n = 0;
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++)
      for (const a of EDGES[names[i]])
        for (const b of EDGES[names[j]]) {
          n++;
          yield queryOf([[names[i], a], [names[j], b], ...(n % 3 === 0 ? ([['sort', 'name']] as [string, unknown][]) : [])]);
        }
}

/** As querystring.parse gives it: an object without a prototype, so `__proto__` is a key like any other. */
function queryOf(entries: [string, unknown][]): Record<string, unknown> {
  const query = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of entries) query[name] = value;
  return query;
}

describe('CatalogueQueryPipe: reading a query without the validator', () => {
  it('agrees with the validator on every query it reads, and leaves it every query it refuses', async () => {
    let plain = 0;
    let accepted = 0;
    for (const named of queries()) {
      const read = readPlainly(named);
      const validated = await validatorReading(named);
      if (read) {
        plain++;
        expect({ named, read }).toEqual({ named, read: validated });
        expect(read).toBeInstanceOf(CatalogueQueryDto);
      }
      // What it reads, the validator accepts; what it leaves, the validator words (accepted or not).
      // The validator lets `constructor` and `toString` through (inherited names); those stay its to read.
      if (validated && !('constructor' in named) && !('toString' in named)) accepted++;
      else expect({ named, read }).toEqual({ named, read: null });
    }
    // Not a path never taken: it reads nearly all the valid ones (not those where characters and UTF-16 units differ).
    expect(plain).toBeGreaterThan(0.9 * accepted);
  });

  it('reads the queries the catalogue serves most without the validator', () => {
    for (const named of [
      {},
      { page: '3' },
      { sort: 'new', page: '50', limit: '20' },
      { search: 'git' },
      { search: 'markdown lint', kind: 'theme', verified: '1', sort: 'name' },
    ]) {
      expect(readPlainly(queryOf(Object.entries(named)))).not.toBeNull();
    }
  });

  it('answers the same through the pipe either way, ext.* filters beside', async () => {
    const pipe = new CatalogueQueryPipe();
    const query = queryOf([
      ['search', 'git'],
      ['page', '2'],
      ['ext.stars', '3'],
    ]);
    const answer = await pipe.transform(query);
    expect(answer).toEqual(Object.assign(plainToInstance(CatalogueQueryDto, { search: 'git', page: '2' }), { ext: { stars: '3' } }));
    await expect(pipe.transform(queryOf([['page', '0']]))).rejects.toThrow('the query has 1 invalid parameter(s)');
  });

  it('takes facets as 1, true, 0 or false, and names the field otherwise', async () => {
    const pipe = new CatalogueQueryPipe();
    for (const value of ['1', 'true']) expect(wantsFacets(await pipe.transform(queryOf([['facets', value]])))).toBe(true);
    for (const value of ['0', 'false']) expect(wantsFacets(await pipe.transform(queryOf([['facets', value]])))).toBe(false);
    expect(wantsFacets(await pipe.transform(queryOf([])))).toBe(false);
    await expect(pipe.transform(queryOf([['facets', 'yes']]))).rejects.toMatchObject({ errors: [{ path: '/facets' }] });
  });
});
