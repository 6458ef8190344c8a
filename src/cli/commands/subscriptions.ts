import { createRegistryClient, type RegistryClient } from '../../client/registry-client';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';
import { UsageError } from '../manifest-files';
import { DEFAULT_REGISTRY } from '../registry-kinds';
import { secureRegistryUrl } from '../registry-call';

export const summary = 'manage your outbound webhook subscriptions: list, create, delete, deliveries, replay, ping (REGISTRY_SESSION)';

const HELP = `usage: registry subscriptions list [--json]
       registry subscriptions create --url URL --event TYPE... --scope SCOPE [--target T]
                                     [--description TEXT] [--json]
       registry subscriptions delete ID
       registry subscriptions deliveries ID [--page N] [--limit N] [--json]
       registry subscriptions replay ID DELIVERY_ID
       registry subscriptions ping ID
  (each also takes --registry URL: default REGISTRY_URL, else ${DEFAULT_REGISTRY})

Manages the signed-in user's webhook subscriptions (/api/account/subscriptions).
  --event TYPE   release.published, release.yanked, release.unyanked, plugin.created,
                 plugin.owners_changed, plugin.deprecated, plugin.undeprecated; admins also
                 webhook.delivery_failed, ingest.failed, key.rotated (repeatable)
  --scope SCOPE  plugin (--target SLUG), kind (--target KEY), owned, registry (admins)

The session comes from the environment variable REGISTRY_SESSION (the value of your
registry_session cookie), never from an argument. create prints the signing secret once.

Exit status: 0 done, 1 refused by the registry, 2 usage error.
`;

interface Args {
  action: string;
  positional: string[];
  registry: string;
  options: Map<string, string[]>;
  json: boolean;
}

const VALUE_OPTIONS = ['--registry', '--url', '--event', '--scope', '--target', '--description', '--page', '--limit'];
const ACTIONS: Record<string, number> = { list: 0, create: 0, delete: 1, deliveries: 1, replay: 2, ping: 1 };

function parseArgs(args: readonly string[], env: CliIo['env']): Args | 'help' {
  const [action, ...rest] = args;
  if (!action || action === '--help' || action === '-h' || action === 'help') return 'help';
  if (!Object.hasOwn(ACTIONS, action)) throw new UsageError(`unknown action '${action}'`);
  const parsed: Args = { action, positional: [], registry: env.REGISTRY_URL ?? DEFAULT_REGISTRY, options: new Map(), json: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = equals > 0 ? arg.slice(0, equals) : arg;
    if (option === '--help' || option === '-h') return 'help';
    if (option === '--json') parsed.json = true;
    else if (option === '--session' || option === '--token')
      throw new UsageError('a session is never taken from the command line; set REGISTRY_SESSION');
    else if (VALUE_OPTIONS.includes(option)) {
      const value = equals > 0 ? arg.slice(equals + 1) : rest[++i];
      if (value === undefined || value === '') throw new UsageError(`${option} needs a value`);
      if (option === '--registry') parsed.registry = value;
      else parsed.options.set(option, [...(parsed.options.get(option) ?? []), value]);
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
    else parsed.positional.push(arg);
  }
  if (parsed.positional.length !== ACTIONS[action]) throw new UsageError(`${action} takes ${ACTIONS[action]} argument(s)`);
  parsed.registry = secureRegistryUrl(parsed.registry, 'REGISTRY_SESSION');
  return parsed;
}

type Problem = { title?: string; detail?: string; errors?: { path: string; message: string }[] };

function refusal(status: number, problem: Problem): string {
  const lines = [`refused (${status}): ${problem.detail ?? problem.title ?? 'no detail'}`];
  for (const error of problem.errors ?? []) lines.push(`  ${error.path}: ${error.message}`);
  return lines.join('\n') + '\n';
}

const one = (args: Args, option: string) => args.options.get(option)?.at(-1);

async function act(client: RegistryClient, args: Args, io: CliIo): Promise<number> {
  const [id, deliveryId] = args.positional;
  const print = (data: unknown, text: () => string) => io.stdout(args.json ? JSON.stringify(data, null, 2) + '\n' : text());
  const failed = (answer: { response: Response; error?: unknown }) => {
    io.stderr(refusal(answer.response.status, (answer.error ?? {}) as Problem));
    return EXIT_FAILURE;
  };
  const path = { params: { path: { id } } };
  switch (args.action) {
    case 'list': {
      const answer = await client.GET('/api/account/subscriptions');
      if (!answer.data) return failed(answer);
      print(
        answer.data,
        () =>
          answer.data.subscriptions
            .map((s) => `${s.id}  ${s.status.padEnd(8)}  ${s.scope}${s.target ? `:${s.target}` : ''}  ${s.events.join(',')}  ${s.url}\n`)
            .join('') || 'no subscriptions\n',
      );
      return EXIT_OK;
    }
    case 'create': {
      const url = one(args, '--url');
      const scope = one(args, '--scope');
      const events = args.options.get('--event') ?? [];
      if (!url || !scope || events.length === 0) throw new UsageError('create needs --url, --scope and at least one --event');
      const target = one(args, '--target');
      const description = one(args, '--description');
      const body = { url, scope, events, ...(target ? { target } : {}), ...(description ? { description } : {}) } as never;
      const answer = await client.POST('/api/account/subscriptions', { body });
      if (!answer.data) return failed(answer);
      print(answer.data, () => `created ${answer.data.subscription.id}\nsigning secret (shown once, keep it): ${answer.data.secret}\n`);
      return EXIT_OK;
    }
    case 'delete': {
      const answer = await client.DELETE('/api/account/subscriptions/{id}', path);
      if (!answer.response.ok) return failed(answer);
      io.stdout(`deleted ${id}\n`);
      return EXIT_OK;
    }
    case 'deliveries': {
      const page = Number(one(args, '--page') ?? 1);
      const limit = Number(one(args, '--limit') ?? 20);
      const answer = await client.GET('/api/account/subscriptions/{id}/deliveries', { params: { path: { id }, query: { page, limit } } });
      if (!answer.data) return failed(answer);
      print(
        answer.data,
        () =>
          answer.data.deliveries
            .map(
              (d) =>
                `${d.id}  ${d.status.padEnd(10)}  ${d.type}${d.slug ? ` ${d.slug}` : ''}  attempts ${d.attempts}  ${d.responseStatus ?? '-'}  ${d.durationMs === null ? '-' : `${d.durationMs} ms`}  ${d.detail ?? ''}\n`,
            )
            .join('') || 'no deliveries\n',
      );
      return EXIT_OK;
    }
    case 'replay': {
      const answer = await client.POST('/api/account/subscriptions/{id}/deliveries/{deliveryId}/replay', {
        params: { path: { id, deliveryId } },
      });
      if (!answer.data) return failed(answer);
      print(answer.data, () => `queued ${deliveryId} again (webhook-id ${answer.data.eventId})\n`);
      return EXIT_OK;
    }
    default: {
      const answer = await client.POST('/api/account/subscriptions/{id}/ping', path);
      if (!answer.data) return failed(answer);
      print(
        answer.data,
        () =>
          `${answer.data.ok ? 'ok' : 'failed'}: ${[answer.data.responseStatus ?? 'no answer', answer.data.detail, `(${answer.data.durationMs} ms)`].filter(Boolean).join(' ')}\n`,
      );
      return answer.data.ok ? EXIT_OK : EXIT_FAILURE;
    }
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(args, io.env);
    if (parsed === 'help') {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const session = io.env.REGISTRY_SESSION;
    if (!session) throw new UsageError('set REGISTRY_SESSION to your session (the registry_session cookie)');
    return await act(createRegistryClient(parsed.registry, { token: session, fetch: io.fetch }), parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`registry subscriptions: ${error.message}\nrun 'registry subscriptions --help' for usage\n`);
      return EXIT_USAGE;
    }
    io.stderr(`registry subscriptions: the registry could not be reached (${(error as Error).message})\n`);
    return EXIT_FAILURE;
  }
}
