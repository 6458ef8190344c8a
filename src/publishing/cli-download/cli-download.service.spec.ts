import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../common/errors/domain-error';
import { CliDownloadService } from './cli-download.service';

describe('CliDownloadService', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cli-download-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers not-found when no CLI is built', () => {
    const service = new CliDownloadService(join(dir, 'registry.js'));
    expect(() => service.bundle()).toThrow(DomainError);
    expect(() => service.bundle()).toThrow('npm run build');
  });

  it('serves the file with its SHA-256, and picks up a new build', () => {
    const file = join(dir, 'registry.js');
    writeFileSync(file, 'console.log(1)\n');
    const service = new CliDownloadService(file);
    const first = service.bundle();
    const hex = createHash('sha256').update('console.log(1)\n').digest('hex');
    expect(first.sha256).toBe(hex);
    expect(first.checksumLine).toBe(`${hex}  registry.js\n`);
    expect(first.etag).toBe(`"${hex.slice(0, 32)}"`);
    expect(service.bundle()).toBe(first);

    writeFileSync(file, 'console.log(22)\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(service.bundle().sha256).toBe(createHash('sha256').update('console.log(22)\n').digest('hex'));
  });
});
