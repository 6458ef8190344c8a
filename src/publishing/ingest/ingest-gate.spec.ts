import { DomainError } from '../../common/errors/domain-error';
import type { SettingsService } from '../../platform/settings/settings.service';
import { IngestGate } from './ingest-gate';

const settings = (instance: number, perUser: number) =>
  ({ get: (key: string) => Promise.resolve(key === 'ingest.max_concurrent' ? instance : perUser) }) as unknown as SettingsService;

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('IngestGate', () => {
  it('refuses past the per-user and the instance caps, and frees the slot however the work ends', async () => {
    const gate = new IngestGate(settings(2, 1));
    const a = deferred();
    const b = deferred();
    const first = gate.run('alice', () => a.promise);
    await Promise.resolve();
    await expect(gate.run('alice', () => Promise.resolve())).rejects.toMatchObject({
      kind: 'rate-limited',
      code: 'ingest-busy',
      extensions: { retryAfter: 10 },
    });
    const second = gate.run('bob', () => b.promise);
    await Promise.resolve();
    const refused = await gate.run('carol', () => Promise.resolve()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).detail).toMatch(/this instance is ingesting 2/);

    a.reject(new Error('forge down'));
    await expect(first).rejects.toThrow('forge down');
    b.resolve();
    await second;
    await expect(gate.run('alice', () => Promise.resolve('again'))).resolves.toBe('again');
    await expect(gate.run('carol', () => Promise.resolve('in'))).resolves.toBe('in');
  });
});
