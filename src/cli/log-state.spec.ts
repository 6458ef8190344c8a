import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from './command';
import { readState, StateFileError, statePath, writeState, type LogState } from './log-state';

const io = (env: Record<string, string>): CliIo => ({
  stdout: () => undefined,
  stderr: () => undefined,
  cwd: '/work/here',
  env,
  fetch: globalThis.fetch,
});

describe('the log state file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'log-state-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives at --state (relative to the cwd), else under an absolute $XDG_STATE_HOME, else under ~/.local/state', () => {
    expect(statePath(io({ XDG_STATE_HOME: '/x' }), 'heads.json')).toBe('/work/here/heads.json');
    expect(statePath(io({ XDG_STATE_HOME: '/x', HOME: '/home/a' }), undefined)).toBe('/x/registry/log-heads.json');
    // The XDG spec says a relative path is to be ignored.
    expect(statePath(io({ XDG_STATE_HOME: 'relative', HOME: '/home/a' }), undefined)).toBe('/home/a/.local/state/registry/log-heads.json');
  });

  it('starts empty when missing, round-trips, and leaves no temporary file behind', async () => {
    const path = join(dir, 'nested', 'log-heads.json');
    expect(await readState(path)).toEqual({ version: 1, heads: {}, monitors: {} });
    const state: LogState = {
      version: 1,
      heads: { 'https://r.example': { origin: 'r.example/log', size: 3, root_hash: 'AA==', note: 'n' } },
      monitors: { 'https://r.example': { size: 3, frontier: ['AA==', 'AQ=='] } },
    };
    await writeState(path, state);
    expect(await readState(path)).toEqual(state);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['log-heads.json']);
  });

  it.each(['{', '[]', '{"version":2,"heads":{}}', '{"version":1}'])('refuses a damaged file %j with StateFileError', async (text) => {
    const path = join(dir, 'log-heads.json');
    writeFileSync(path, text);
    await expect(readState(path)).rejects.toThrow(StateFileError);
  });
});
