import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';

export const summary = 'list or rotate the release-signing keys (works while the server runs)';

const USAGE = `usage: registry keys <list|rotate>

  list    every signing key: kid, state (current, previous, retired), creation time
  rotate  make a new current key; current becomes previous, previous retires (prints the new kid)

Works while the server runs and while it is stopped (the embedded database too).
`;

const SUBCOMMANDS = ['list', 'rotate'] as const;
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
  const { insertAuditRecord } = await import('../../audit/audit-row');
  const { KeyEncryption } = await import('../../integrity/key-encryption');
  const { RandomSigningKeyGenerator } = await import('../../integrity/signing-key-generator');
  const { rotationAuditDetails, SigningKeyManager } = await import('../../integrity/signing-key-manager');
  const { SigningKeyRepository } = await import('../../integrity/signing-key.repository');

  return withOperatorDatabase(io, { migrate: false }, async ({ dataSource }, config) => {
    if (await dataSource.showMigrations()) {
      io.stderr(`registry keys: the database has pending migrations; run 'registry migrate' first\n`);
      return EXIT_FAILURE;
    }
    const keys = new SigningKeyManager(
      new SigningKeyRepository(dataSource),
      new KeyEncryption(config.keyEncryptionKey),
      new RandomSigningKeyGenerator(),
    );
    if ((subcommand as Subcommand) === 'list') {
      const all = await keys.list();
      if (all.length === 0) {
        io.stderr('no signing keys yet: the server creates the first one when it starts\n');
        return EXIT_OK;
      }
      io.stdout(all.map((key) => `${key.kid}  ${key.state.padEnd(8)}  ${key.createdAt.toISOString()}\n`).join(''));
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
        (rotation.retiredKid ? `, ${rotation.retiredKid} retired` : '') +
        '\n',
    );
    return EXIT_OK;
  });
}
