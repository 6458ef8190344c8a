import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_USAGE } from '../command';

/** Reads stdin to its end (at most 64 KiB), or '' when it is a terminal nobody types into. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > 64 * 1024) break;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `registry users sign-in-link <login>` and `registry users set-password <login>`. */
export async function runCredentialCommand(
  sub: 'sign-in-link' | 'set-password',
  args: string[],
  io: CliIo,
  usage: string,
): Promise<number> {
  let login: string | undefined;
  let instance: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--instance' && sub === 'sign-in-link') instance = args[++i];
    else if (args[i].startsWith('-') || login) {
      io.stderr(`registry users ${sub}: unexpected argument '${args[i]}'\n${usage}`);
      return EXIT_USAGE;
    } else login = args[i];
  }
  if (!login) {
    io.stderr(`registry users ${sub}: a login is required\n${usage}`);
    return EXIT_USAGE;
  }
  if (sub === 'set-password') instance = 'local';
  const password = sub === 'set-password' ? (await readStdin()).split(/\r?\n/)[0] : '';
  await import('reflect-metadata');
  const { passwordProblem, hashPassword } = await import('../../lib/password/password-hash');
  if (sub === 'set-password') {
    const problem = passwordProblem(password, login);
    if (problem) {
      io.stderr(`registry users set-password: the password (first line of stdin) ${problem}\n`);
      return EXIT_USAGE;
    }
  }
  const { withOperatorDatabase } = await import('../operator-database');
  const { UsersRepository } = await import('../../platform/users/users.repository');
  return withOperatorDatabase(io, { migrate: false }, async ({ dataSource }, config) => {
    const matches = await new UsersRepository(dataSource).findByLogin(login!, instance);
    if (matches.length === 0) {
      io.stderr(
        `registry users ${sub}: no ${instance === 'local' ? 'local ' : ''}user '${login}'${instance && instance !== 'local' ? ` on ${instance}` : ''}\n`,
      );
      return EXIT_FAILURE;
    }
    if (matches.length > 1) {
      io.stderr(`registry users ${sub}: '${login}' exists on ${matches.map((u) => u.instance).join(', ')}; pass --instance\n`);
      return EXIT_USAGE;
    }
    const user = matches[0];
    if (user.disabledAt) {
      io.stderr(`registry users ${sub}: '${login}' is disabled\n`);
      return EXIT_FAILURE;
    }
    if (sub === 'set-password') {
      const { PasswordsRepository } = await import('../../accounts/local-sign-in/passwords.repository');
      const { insertAuditRecord } = await import('../../platform/audit/audit-row');
      const hash = await hashPassword(password);
      await dataSource.transaction(async (manager) => {
        await new PasswordsRepository(dataSource).store(user.id, hash, manager);
        await insertAuditRecord(manager, { action: 'password.set', details: { userId: user.id, login: user.login, via: 'cli' } });
      });
      io.stdout(`password set for ${user.login}\n`);
      return 0;
    }
    const { issueSignInLink } = await import('../../accounts/local-sign-in/sign-in-links');
    const link = await issueSignInLink(dataSource, {
      userId: user.id,
      login: user.login,
      baseUrl: config.baseUrl,
      now: new Date(),
      via: 'cli',
    });
    io.stdout(`${link.url}\n`);
    io.stderr(`one-time sign-in link for ${user.login}: works once, until ${link.expiresAt.toISOString()}\n`);
    return 0;
  });
}
