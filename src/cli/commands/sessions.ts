import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_USAGE } from '../command';

export const summary = 'issue <login> [--instance NAME]: print a session JWT for a user';

const USAGE = `usage: registry sessions issue <login> [--instance NAME]

Prints a session JWT (valid 7 days) for the user on stdout: the operator's way in, e.g.
  curl -H "Authorization: Bearer $(registry sessions issue admin)" .../api/auth/me
--instance picks the forge instance when several users share the login (default: the only one).
`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (sub !== 'issue') {
    io.stderr(USAGE);
    return EXIT_USAGE;
  }
  let login: string | undefined;
  let instance: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--instance') instance = rest[++i];
    else if (rest[i].startsWith('-') || login) {
      io.stderr(`registry sessions issue: unexpected argument '${rest[i]}'\n${USAGE}`);
      return EXIT_USAGE;
    } else login = rest[i];
  }
  if (!login) {
    io.stderr(USAGE);
    return EXIT_USAGE;
  }
  await import('reflect-metadata');
  const { withOperatorDatabase } = await import('../operator-database');
  const { UsersRepository } = await import('../../platform/users/users.repository');
  const { SessionsRepository } = await import('../../platform/auth/sessions.repository');
  const { SessionTokens } = await import('../../platform/auth/session-tokens');
  const { SystemClock } = await import('../../common/clock');
  return withOperatorDatabase(io, { migrate: false }, async ({ dataSource }, config) => {
    const matches = await new UsersRepository(dataSource).findByLogin(login!, instance);
    if (matches.length === 0) {
      io.stderr(`registry sessions issue: no user '${login}'${instance ? ` on ${instance}` : ''}\n`);
      return EXIT_FAILURE;
    }
    if (matches.length > 1) {
      io.stderr(`registry sessions issue: '${login}' exists on ${matches.map((u) => u.instance).join(', ')}; pass --instance\n`);
      return EXIT_USAGE;
    }
    if (matches[0].disabledAt) {
      io.stderr(`registry sessions issue: '${login}' is disabled\n`);
      return EXIT_FAILURE;
    }
    const tokens = new SessionTokens(config.sessionSecret, new SessionsRepository(dataSource), new SystemClock());
    const session = await tokens.issue(matches[0].id);
    io.stdout(`${session.token}\n`);
    return 0;
  });
}
