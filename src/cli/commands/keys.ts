import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';

export const summary = 'list, rotate or re-sign the release-signing keys (works while the server runs)';

const USAGE = `usage: registry keys <list|rotate|resign>

  list    every signing key: kid, state (current, previous, draining, retired), creation time,
          and, for a key whose releases are being re-signed, how many are pending
  rotate  make a new current key; current becomes previous, and previous drains: it stays in the
          key set while a running server re-signs its releases with the new key, then retires
          (prints the new kid). Never waits: keys an earlier rotation left draining keep draining.
  resign  re-sign here and now every release still signed by a draining (or retired) key, with the
          current key; for when no server runs, or to hurry a drain

Works while the server runs and while it is stopped (the embedded database too).
`;

const SUBCOMMANDS = ['list', 'rotate', 'resign'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const [subcommand, ...rest] = args;
  if (!subcommand || !(SUBCOMMANDS as readonly string[]).includes(subcommand)) {
    io.stderr(subcommand ? `registry keys: unknown subcommand '${subcommand}'\n${USAGE}` : USAGE);
    return EXIT_USAGE;
  }
  if (rest.length) {
    io.stderr(`registry keys ${subcommand}: unexpected argument '${rest[0]}'\n${USAGE}`);
    return EXIT_USAGE;
  }

  // Only TypeORM and the integrity classes load here: the server's framework is never booted.
  await import('reflect-metadata');
  const { withOperatorDatabase } = await import('../operator-database');
  const { insertAuditRecord } = await import('../../platform/audit/audit-row');
  const { KeyEncryption } = await import('../../trust/integrity/key-encryption');
  const { DEFAULT_RESIGN_WORKER_OPTIONS } = await import('../../trust/integrity/release-resign-worker');
  const { ReleaseResigner } = await import('../../trust/integrity/release-resigner');
  const { ReleaseSignaturesRepository } = await import('../../trust/integrity/release-signatures.repository');
  const { RandomSigningKeyGenerator } = await import('../../trust/integrity/signing-key-generator');
  const { rotationAuditDetails, SigningKeyManager } = await import('../../trust/integrity/signing-key-manager');
  const { SigningKeyRepository } = await import('../../trust/integrity/signing-key.repository');
  const { TransparencyLog } = await import('../../trust/transparency-log/transparency-log');
  const { TransparencyRepository } = await import('../../trust/transparency-log/transparency.repository');

  return withOperatorDatabase(io, { migrate: false }, async ({ dataSource }, config) => {
    if (await dataSource.showMigrations()) {
      io.stderr(`registry keys: the database has pending migrations; run 'registry migrate' first\n`);
      return EXIT_FAILURE;
    }
    const repository = new SigningKeyRepository(dataSource);
    const signatures = new ReleaseSignaturesRepository(dataSource);
    const keys = new SigningKeyManager(
      repository,
      signatures,
      new KeyEncryption(config.keyEncryptionKey),
      new RandomSigningKeyGenerator(),
      new TransparencyLog(new TransparencyRepository(dataSource)),
    );

    if ((subcommand as Subcommand) === 'list') {
      const all = await keys.list();
      if (all.length === 0) {
        io.stderr('no signing keys yet: the server creates the first one when it starts\n');
        return EXIT_OK;
      }
      const counts = (key: (typeof all)[number]) =>
        key.state === 'draining' || key.pending || key.failed
          ? `  pending ${key.pending}${key.failed ? `  failed ${key.failed}` : ''}`
          : '';
      io.stdout(all.map((key) => `${key.kid}  ${key.state.padEnd(8)}  ${key.createdAt.toISOString()}${counts(key)}\n`).join(''));
      return EXIT_OK;
    }

    if ((subcommand as Subcommand) === 'resign') {
      const resigner = new ReleaseResigner(repository, signatures, keys);
      const done = await resigner.drain({
        batchSize: DEFAULT_RESIGN_WORKER_OPTIONS.batchSize,
        graceMs: DEFAULT_RESIGN_WORKER_OPTIONS.retireGraceMs,
        via: 'cli',
      });
      io.stdout(`re-signed ${done.resigned} release(s) with the current key\n`);
      if (done.failed)
        io.stderr(
          `${done.failed} release(s) kept their signature: it does not verify under the key it names (see the key.resign audit entry)\n`,
        );
      for (const drain of done.drains ?? []) {
        if (drain.state === 'retired') io.stderr(`${drain.kid} has no release left to re-sign and left the key set\n`);
        if (drain.state === 'grace') {
          io.stderr(
            `${drain.kid} has no release left to re-sign; it stays in the key set until ${drain.leavesAt.toISOString()} ` +
              `(clients may cache a release it signed), then a running server retires it, or 'registry keys resign' does\n`,
          );
        }
        if (drain.state === 'pending')
          io.stderr(`${drain.pending} release(s) of ${drain.kid} are being re-signed by another process; run again to wait for them\n`);
      }
      return EXIT_OK;
    }

    const rotation = await keys.rotate(async (manager, done) => {
      // The same entry the admin route writes; the operator at the console has no user id.
      await insertAuditRecord(manager, { action: 'key.rotate', details: { ...rotationAuditDetails(done), via: 'cli' } });
    });
    io.stdout(`${rotation.kid}\n`);
    io.stderr(
      `rotated: ${rotation.kid} is current` +
        (rotation.previousKid ? `, ${rotation.previousKid} is previous` : '') +
        (rotation.drainingKid ? `, ${rotation.drainingKid} drains (${rotation.pending} release(s) to re-sign)` : '') +
        rotation.retiredKids.map((kid) => `, ${kid} retired`).join('') +
        rotation.stillDraining.map((key) => `, ${key.kid} still drains (${key.pending} release(s) to re-sign)`).join('') +
        '\n' +
        (rotation.pending || rotation.stillDraining.some((key) => key.pending > 0)
          ? "a running server re-signs them in the background; with no server running, run 'registry keys resign'\n"
          : ''),
    );
    return EXIT_OK;
  });
}
