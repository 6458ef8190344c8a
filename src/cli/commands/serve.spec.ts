import { serveEnvironment } from './serve';

describe('registry serve arguments', () => {
  it('--mirror-of sets MIRROR_OF over the environment, either spelling', () => {
    expect(serveEnvironment(['--mirror-of', 'https://up.example'], { PORT: '1', MIRROR_OF: 'https://old.example' })).toEqual({
      env: { PORT: '1', MIRROR_OF: 'https://up.example' },
    });
    expect(serveEnvironment(['--mirror-of=https://up.example'], {})).toEqual({ env: { MIRROR_OF: 'https://up.example' } });
    expect(serveEnvironment([], { PORT: '1' })).toEqual({ env: { PORT: '1' } });
  });

  it('refuses a missing URL and any other argument', () => {
    expect(serveEnvironment(['--mirror-of'], {})).toEqual({ error: expect.stringContaining('needs the upstream') });
    expect(serveEnvironment(['--mirror-of', '--port'], {})).toEqual({ error: expect.stringContaining('needs the upstream') });
    expect(serveEnvironment(['--port', '1'], {})).toEqual({ error: expect.stringContaining("unexpected argument '--port'") });
  });
});
