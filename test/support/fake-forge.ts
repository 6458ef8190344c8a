import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type ForgeKind = 'github' | 'gitlab' | 'gitea' | 'forgejo';

type Handler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, body: Buffer) => void | Promise<void>;

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export interface AssetSpec {
  /** Total bytes served. */
  size: number;
  /** Deterministic content: byte i is (seed + i) mod 251. */
  seed?: number;
  contentType?: string;
  /** Lie in Content-Length (to test that the registry judges by bytes streamed). */
  declaredLength?: number;
}

/** The bytes `AssetSpec` describes, generated in chunks so huge assets never sit in memory. */
export function* assetChunks(spec: AssetSpec, chunkSize = 64 * 1024): Generator<Buffer> {
  const seed = spec.seed ?? 0;
  for (let offset = 0; offset < spec.size; offset += chunkSize) {
    const length = Math.min(chunkSize, spec.size - offset);
    const chunk = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i++) chunk[i] = (seed + offset + i) % 251;
    yield chunk;
  }
}

/** The hex SHA-256 of the bytes `AssetSpec` describes (what the registry signs for it). */
export function assetSha256(spec: AssetSpec): string {
  const hash = createHash('sha256');
  for (const chunk of assetChunks(spec)) hash.update(chunk);
  return hash.digest('hex');
}

/** An asset whose answer waits for the test (`FakeForge.held`). */
export interface HeldAsset {
  url: string;
  /** The registry asked for it. */
  requested: Promise<void>;
  /** The registry closed the connection before the answer was sent. */
  aborted: Promise<void>;
  /** Sends the answer (now, or as soon as it is asked for). */
  release(): void;
}

/** A repository as the fake forge's REST API serves it (`FakeForge.repository`). */
export interface FakeRepository {
  /** The forge's immutable numeric id. */
  id: number;
  /** Access tokens (`Authorization: Bearer …`) whose users administer it: GitHub admin, GitLab Maintainer, Gitea admin. */
  admins?: readonly string[];
  /** Access tokens whose users may push but not administer it. */
  members?: readonly string[];
  /** Seen only with a token of `admins` or `members`; anyone else gets the forge's 404, as for a private repository. */
  private?: boolean;
  /** The path the forge answers with when it is not the one asked for (a renamed repository answers its new path). */
  currentPath?: string;
}

/** Where each family's REST API lives below its instance (GitHub's is GitHub Enterprise's /api/v3, as in publishWorld). */
export const DEFAULT_API_PATH: Readonly<Record<ForgeKind, string>> = {
  github: '/api/v3',
  gitlab: '/api/v4',
  gitea: '/api/v1',
  forgejo: '/api/v1',
};

/** The repository record in the family's own shape, with the caller's permissions when a token was sent. */
function repositoryRecord(
  kind: ForgeKind,
  webUrl: string,
  path: string,
  repo: FakeRepository,
  token: string | null,
): Record<string, unknown> {
  const admin = token !== null && (repo.admins ?? []).includes(token);
  const member = admin || (token !== null && (repo.members ?? []).includes(token));
  const segments = path.split('/');
  const name = segments[segments.length - 1];
  if (kind === 'gitlab') {
    return {
      id: repo.id,
      name,
      path: name,
      path_with_namespace: path,
      web_url: `${webUrl}/${path}`,
      visibility: repo.private ? 'private' : 'public',
      star_count: 0,
      forks_count: 0,
      permissions: { project_access: member ? { access_level: admin ? 40 : 30 } : null, group_access: null },
    };
  }
  const common = {
    id: repo.id,
    name,
    full_name: path,
    owner: { login: segments[0] },
    private: repo.private === true,
    html_url: `${webUrl}/${path}`,
  };
  if (kind === 'github') {
    // GitHub adds the caller's permissions only when the request is authenticated.
    return token === null
      ? { ...common, node_id: `R_${repo.id}` }
      : { ...common, node_id: `R_${repo.id}`, permissions: { admin, maintain: false, push: member, triage: member, pull: true } };
  }
  return { ...common, permissions: { admin, push: member, pull: true } };
}

/**
 * A forge on 127.0.0.1 that tests drive: arbitrary JSON/REST routes, release assets of chosen
 * size and content, repository records in each forge's REST shape (`repository`), and signed
 * webhook deliveries in each forge's own header scheme; anything else through `route`.
 */
export class FakeForge {
  private server: Server | null = null;
  private readonly routes: Route[] = [];
  /** Every request the forge saw, for assertions such as "zero requests reached me". */
  readonly requests: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.dispatch(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  route(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const pattern = new RegExp(
      '^' +
        path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]+)/g, (_, key: string) => {
          keys.push(key);
          return '([^/]+)';
        }) +
        '$',
    );
    this.routes.unshift({ method: method.toUpperCase(), pattern, keys, handler });
    return this;
  }

  json(method: string, path: string, body: unknown, status = 200): this {
    return this.route(method, path, (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  }

  private readonly repositories = new Map<string, Map<string, FakeRepository>>();

  /**
   * Serves `path`'s record on the REST API of a `kind` instance at this forge's URL (API under
   * `apiPath`), as that forge shapes it: GitHub and Gitea/Forgejo at `repos/<owner>/<repo>`, GitLab at
   * `projects/<url-encoded path>`. Paths compare without regard to case, as the forges do; an unknown
   * repository, or a private one asked without a token that sees it, is the forge's 404.
   */
  repository(kind: ForgeKind, path: string, repo: FakeRepository, apiPath = DEFAULT_API_PATH[kind]): this {
    const key = `${kind} ${apiPath}`;
    let known = this.repositories.get(key);
    if (!known) {
      known = new Map();
      this.repositories.set(key, known);
      const served = known;
      const answer = (res: ServerResponse, asked: string, token: string | null) => {
        const found = served.get(asked.toLowerCase());
        const visible =
          found && (!found.private || (token !== null && [...(found.admins ?? []), ...(found.members ?? [])].includes(token)));
        if (!found || !visible) {
          res
            .writeHead(404, { 'Content-Type': 'application/json' })
            .end(kind === 'gitlab' ? '{"message":"404 Project Not Found"}' : '{"message":"Not Found"}');
          return;
        }
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(repositoryRecord(kind, this.url, found.currentPath ?? asked, found, token)));
      };
      const bearer = (req: IncomingMessage) => /^(?:Bearer|token) (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
      if (kind === 'gitlab')
        this.route('GET', `${apiPath}/projects/:project`, (req, res, params) => answer(res, params.project, bearer(req)));
      else
        this.route('GET', `${apiPath}/repos/:owner/:repo`, (req, res, params) =>
          answer(res, `${params.owner}/${params.repo}`, bearer(req)),
        );
    }
    known.set(path.toLowerCase(), { ...repo, currentPath: repo.currentPath ?? path });
    return this;
  }

  /** Serves a release asset; returns its absolute URL. */
  asset(path: string, spec: AssetSpec): string {
    this.route('GET', path, async (_req, res) => {
      res.writeHead(200, {
        'Content-Type': spec.contentType ?? 'application/octet-stream',
        'Content-Length': String(spec.declaredLength ?? spec.size),
      });
      for (const chunk of assetChunks(spec)) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    return `${this.url}${path}`;
  }

  /**
   * Serves `body` at `path` only once `release()` is called, so a test can act while a download is
   * in flight: `requested` resolves when the registry asks, `aborted` when it closed the connection
   * before the answer was sent (a cancelled or crashed download).
   */
  held(path: string, body: Buffer = Buffer.alloc(512, 1)): HeldAsset {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested!: () => void;
    const seen = new Promise<void>((resolve) => (requested = resolve));
    let aborted!: () => void;
    const closed = new Promise<void>((resolve) => (aborted = resolve));
    this.route('GET', path, async (_req, res) => {
      res.once('close', () => {
        if (!res.writableFinished) aborted();
      });
      requested();
      await released;
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) }).end(body);
    });
    return { url: `${this.url}${path}`, requested: seen, aborted: closed, release };
  }

  /** Serves `body` at `path` as `contentType` (a picture, a page); the URL it is at. */
  file(path: string, body: Buffer | string, contentType: string): string {
    this.route('GET', path, (_req, res) => {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': String(bytes.length) }).end(bytes);
    });
    return `${this.url}${path}`;
  }

  /** How many requests reached `path` (the query ignored). */
  hits(path: string): number {
    return this.requests.filter((r) => r.url.split('?')[0] === path).length;
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    const path = (req.url ?? '/').split('?')[0];
    for (const route of this.routes) {
      if (route.method !== req.method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const params = Object.fromEntries(route.keys.map((k, i) => [k, decodeURIComponent(match[i + 1])]));
      try {
        await route.handler(req, res, params, Buffer.concat(chunks));
      } catch {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"message":"Not Found"}');
  }
}

/** The headers a forge sends with a webhook body (as shared/fixtures/webhooks/sign.mjs prints them). */
export function webhookHeaders(kind: ForgeKind, secret: string, body: Buffer | string, event = 'release'): Record<string, string> {
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const id = randomUUID();
  const headers: Record<ForgeKind, Record<string, string>> = {
    github: {
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': id,
      'X-GitHub-Hook-ID': '1',
      'X-Hub-Signature-256': `sha256=${hex}`,
      'User-Agent': 'GitHub-Hookshot/test',
    },
    gitlab: {
      'X-Gitlab-Event': event === 'release' ? 'Release Hook' : event,
      'X-Gitlab-Token': secret,
      'X-Gitlab-Event-UUID': id,
      'X-Gitlab-Webhook-UUID': randomUUID(),
      'Idempotency-Key': id,
      'User-Agent': 'GitLab/18.0.0',
    },
    gitea: {
      'X-Gitea-Event': event,
      'X-Gitea-Event-Type': event,
      'X-Gitea-Delivery': id,
      'X-Gitea-Signature': hex,
      'X-Gogs-Event': event,
      'X-Gogs-Signature': hex,
      'X-Hub-Signature-256': `sha256=${hex}`,
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': id,
    },
    forgejo: {
      'X-Forgejo-Event': event,
      'X-Forgejo-Event-Type': event,
      'X-Forgejo-Delivery': id,
      'X-Forgejo-Signature': hex,
      'X-Gitea-Event': event,
      'X-Gitea-Signature': hex,
      'X-Hub-Signature-256': `sha256=${hex}`,
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': id,
    },
  };
  return { 'Content-Type': 'application/json', ...headers[kind] };
}
