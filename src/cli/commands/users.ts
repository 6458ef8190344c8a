import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_USAGE } from '../command';

export const summary = 'manage users: create <login> [--admin] [--email EMAIL] | sign-in-link <login> | set-password <login>';

const USAGE = `usage: registry users create <login> [--admin] [--email EMAIL]
       registry users sign-in-link <login> [--instance NAME]
       registry users set-password <login>        (reads the password from stdin)

create        Creates a local user (instance "local"); --admin gives it the admin role, which is
              how an operator gets the first admin in without the install wizard.
sign-in-link  Prints a one-time link that signs the user in on the web (good for 15 minutes, one
              use): the first sign-in of a local user, or a way back in for anyone. The person
              then adds a passkey (or a password) on /account. --instance picks the forge
              instance when several users share the login.
set-password  Sets a local user's password from the first line of stdin (10 to 256 characters),
              e.g. \`printf '%s\\n' "$PW" | registry users set-password alice\`.
All of them work while the server runs.
`;

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export async function run(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (sub === 'sign-in-link' || sub === 'set-password') {
    const { runCredentialCommand } = await import('./user-credentials');
    return runCredentialCommand(sub, rest, io, USAGE);
  }
  if (sub !== 'create') {
    io.stderr(USAGE);
    return EXIT_USAGE;
  }
  let login: string | undefined;
  let admin = false;
  let email: string | null = null;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--admin') admin = true;
    else if (arg === '--email') email = rest[++i] ?? null;
    else if (arg.startsWith('-') || login) {
      io.stderr(`registry users create: unexpected argument '${arg}'\n${USAGE}`);
      return EXIT_USAGE;
    } else login = arg;
  }
  if (!login || !LOGIN.test(login)) {
    io.stderr(`registry users create: a login of letters, digits, _ . - is required\n`);
    return EXIT_USAGE;
  }
  await import('reflect-metadata');
  const { withOperatorDatabase } = await import('../operator-database');
  const { UsersRepository } = await import('../../platform/users/users.repository');
  const { insertAuditRecord } = await import('../../platform/audit/audit-row');
  return withOperatorDatabase(io, { migrate: false }, async ({ dataSource }) => {
    const users = new UsersRepository(dataSource);
    const existing = await users.findByLogin(login!, 'local');
    if (existing.length) {
      io.stderr(`registry users create: a local user '${login}' already exists\n`);
      return EXIT_FAILURE;
    }
    const user = await dataSource.transaction(async (manager) => {
      const created = await users.createLocal({ login: login!, email, role: admin ? 'admin' : 'user' }, manager);
      await insertAuditRecord(manager, {
        action: 'user.create',
        details: { userId: created.id, login: created.login, role: created.role, via: 'cli' },
      });
      return created;
    });
    io.stdout(`created ${user.role} ${user.login} (${user.id})\n`);
    return 0;
  });
}
