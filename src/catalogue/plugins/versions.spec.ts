import fc from 'fast-check';
import semver from 'semver';
import { versionSortKey } from './versions';

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('versionSortKey', () => {
  it('orders the SemVer spec example chain', () => {
    const chain = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.2.0',
      '1.10.0',
      '2.0.0-0',
      '2.0.0',
      '10.0.0',
    ];
    const keys = chain.map(versionSortKey);
    expect([...keys].sort(byBytes)).toEqual(keys);
  });

  it('ignores build metadata and a leading v', () => {
    expect(versionSortKey('v1.2.3+build.7')).toBe(versionSortKey('1.2.3'));
  });

  it('agrees with semver.compare on generated versions', () => {
    const num = fc.oneof(fc.constantFrom('0', '1', '2', '9', '10', '11', '99', '100'), fc.nat({ max: 100000 }).map(String));
    const id = fc.oneof(
      num,
      fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/).filter((s) => !/^[0-9]+$/.test(s) || !/^0[0-9]/.test(s)),
    );
    const version = fc
      .tuple(num, num, num, fc.option(fc.array(id, { minLength: 1, maxLength: 4 }), { nil: undefined }))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre.join('.')}` : ''}`)
      .filter((v) => semver.valid(v) !== null);
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(Math.sign(byBytes(versionSortKey(a), versionSortKey(b)))).toBe(Math.sign(semver.compare(a, b)));
      }),
      { numRuns: 3000 },
    );
  });
});
