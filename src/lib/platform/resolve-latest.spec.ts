import { chooseAsset, chooseLatestRelease, type CandidateRelease } from './resolve-latest';

const asset = (name: string, os: string, arch: string) => ({ name, os, arch, size: 1, sha256: 'ab' });
const release = (version: string, extra: Partial<CandidateRelease> = {}): CandidateRelease => ({
  version,
  prerelease: version.includes('-'),
  yanked: false,
  minRuntimeVersion: null,
  assets: [],
  ...extra,
});

describe('chooseLatestRelease', () => {
  const releases = [
    release('3.0.0', { yanked: true }),
    release('2.1.0-rc.1'),
    release('2.0.0', { minRuntimeVersion: '>=3' }),
    release('1.5.0', { minRuntimeVersion: '2.0.0' }),
    release('1.0.0'),
  ];

  it('passes over yanked, prerelease and runtime-excluded releases, saying why', () => {
    const choice = chooseLatestRelease(releases, { prerelease: false, runtime: '2.4.1' });
    expect(choice.release?.version).toBe('1.5.0');
    expect(choice.skipped).toEqual([
      { version: '3.0.0', reason: 'yanked' },
      { version: '2.1.0-rc.1', reason: 'prerelease' },
      { version: '2.0.0', reason: 'runtime', range: '>=3' },
    ]);
  });

  it('takes a prerelease when asked, ignores runtimes when none is given, and gives null when nothing fits', () => {
    expect(chooseLatestRelease(releases, { prerelease: true, runtime: null }).release?.version).toBe('2.1.0-rc.1');
    expect(chooseLatestRelease(releases, { prerelease: false, runtime: null }).release?.version).toBe('2.0.0');
    expect(chooseLatestRelease(releases, { prerelease: false, runtime: '1.0.0' }).release?.version).toBe('1.0.0');
    expect(chooseLatestRelease([release('1.0.0', { yanked: true })], { prerelease: true, runtime: null })).toEqual({
      release: null,
      skipped: [{ version: '1.0.0', reason: 'yanked' }],
    });
  });
});

describe('chooseAsset', () => {
  const assets = [
    asset('t-linux-x64.tgz', 'linux', 'x64'),
    asset('t-darwin.zip', 'darwin', 'universal'),
    asset('t.wasm', 'universal', 'universal'),
  ];

  it('prefers the exact platform, then the os, then the universal asset', () => {
    expect(chooseAsset(assets, { os: 'linux', arch: 'x64' })).toMatchObject({ platform: 'linux-x64', asset: { name: 't-linux-x64.tgz' } });
    expect(chooseAsset(assets, { os: 'darwin', arch: 'arm64' })).toMatchObject({
      platform: 'darwin-universal',
      asset: { name: 't-darwin.zip' },
    });
    expect(chooseAsset(assets, { os: 'win32', arch: 'x64' })).toMatchObject({ platform: null, asset: { name: 't.wasm' } });
    expect(chooseAsset(assets, { os: null, arch: null })).toMatchObject({ platform: null });
  });

  it('finds nothing without a match or a universal asset', () => {
    expect(chooseAsset([asset('t-linux-x64.tgz', 'linux', 'x64')], { os: 'win32', arch: 'x64' })).toBeNull();
  });
});
