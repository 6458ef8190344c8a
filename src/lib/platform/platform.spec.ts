import { detectPlatform, platformKey } from './platform';

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
