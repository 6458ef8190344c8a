import { detectPlatform, normalizeArch, normalizeOs, platformFromUserAgent, platformKey } from './platform';

describe('detectPlatform', () => {
  it.each([
    ['tool-linux-x64.tar.gz', 'linux', 'x64'],
    ['tool-linux-amd64.tar.gz', 'linux', 'x64'],
    ['tool_Linux_x86_64.zip', 'linux', 'x64'],
    ['tool-darwin-arm64.zip', 'darwin', 'arm64'],
    ['tool-macos-aarch64.zip', 'darwin', 'arm64'],
    ['tool-mac-x64.dmg', 'darwin', 'x64'],
    ['tool-osx.zip', 'darwin', 'universal'],
    ['tool-windows-x64.exe', 'win32', 'x64'],
    ['tool-win32-ia32.zip', 'win32', 'ia32'],
    ['tool-win-x86.zip', 'win32', 'ia32'],
    ['tool-linux-i386.tgz', 'linux', 'ia32'],
    ['tool-linux-armhf.tgz', 'linux', 'armhf'],
    ['tool-linux-armv7.tgz', 'linux', 'armhf'],
    ['tool.zip', 'universal', 'universal'],
    ['plugin.wasm', 'universal', 'universal'],
    ['darwinian-tools.zip', 'universal', 'universal'],
    ['winner.zip', 'universal', 'universal'],
  ])('%s → %s/%s', (name, os, arch) => {
    expect(detectPlatform(name)).toEqual({ os, arch });
  });

  it('builds platform keys', () => {
    expect(platformKey('linux', 'x64')).toBe('linux-x64');
    expect(platformKey('universal', 'universal')).toBe('universal');
  });
});

describe('platformFromUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', 'win32', 'x64'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1.15', 'darwin', 'x64'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'linux', 'x64'],
    ['Mozilla/5.0 (X11; Linux aarch64) Firefox/128.0', 'linux', 'arm64'],
    ['MyHost/1.2 (linux; arm64)', 'linux', 'arm64'],
    ['MyHost/1.2 (darwin; arm64)', 'darwin', 'arm64'],
    ['curl/8.5.0', null, null],
    ['Wget/1.21.4 (linux-gnu)', 'linux', null],
  ])('%s → %s/%s', (ua, os, arch) => {
    expect(platformFromUserAgent(ua)).toEqual({ os, arch });
  });

  it('reads query aliases', () => {
    expect([normalizeOs('macOS'), normalizeOs('windows'), normalizeOs('plan9')]).toEqual(['darwin', 'win32', null]);
    expect([normalizeArch('amd64'), normalizeArch('x86_64'), normalizeArch('aarch64'), normalizeArch('sparc')]).toEqual([
      'x64',
      'x64',
      'arm64',
      null,
    ]);
  });
});
