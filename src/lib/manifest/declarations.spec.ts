import { declarationProblems } from './declarations';

describe('declarationProblems', () => {
  it('accepts well-formed declarations', () => {
    expect(
      declarationProblems([
        { key: 'stars', type: 'number', enum: [1, 2] },
        { key: 'dark', type: 'boolean' },
        { key: 'os_list', type: 'string[]', maxLength: 10 },
      ]),
    ).toEqual([]);
  });

  it('names each problem at its pointer', () => {
    expect(
      declarationProblems(
        [
          { key: 'name', type: 'string' },
          { key: 'Bad Key', type: 'string' },
          { key: 'x', type: 'number', enum: [1, 'two'] },
          { key: 'x', type: 'boolean', enum: [true as never] },
          { key: 'y', type: 'number', maxLength: 3 },
        ],
        '/fields',
      ).map((p) => p.path),
    ).toEqual(['/fields/0/key', '/fields/1/key', '/fields/2/enum/1', '/fields/3/key', '/fields/3/enum', '/fields/4/maxLength']);
  });
});
