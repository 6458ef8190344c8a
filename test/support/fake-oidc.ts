import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type KeyLike, SignJWT } from 'jose';

export interface IssuerKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyLike;
  publicKey: KeyLike;
  publicJwk: JWK;
}

export interface SignOptions {
  /** Sign with this key (default: the first published one); it need not be published. */
  key?: IssuerKey;
  /** Override the kid in the header (default: the key's). */
  kid?: string;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A CI OIDC issuer on 127.0.0.1: its discovery document and JWKS, and tokens signed with its
 * generated RSA and EC keys (or with keys it does not publish, or no key at all) for tests.
 */
export class FakeOidcIssuer {
  private server: Server | null = null;
  /** The keys in the served JWKS. */
  published: IssuerKey[] = [];
  /** The discovery document's jwks_uri; defaults to this server's /jwks. */
  jwksUri: string | null = null;
  /** Every request, for "the JWKS was (not) read again" assertions. */
  readonly requests: string[] = [];
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A new key pair; published in the JWKS unless `publish` is false. */
  async newKey(alg: 'RS256' | 'ES256', publish = true): Promise<IssuerKey> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const kid = `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`;
    const key = { kid, alg, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
    if (publish) this.published.push(key);
    return key;
  }

  /** A signed ID token with these claims (the caller sets iss, aud, times and the rest). */
  async sign(claims: Record<string, unknown>, options: SignOptions = {}): Promise<string> {
    const key = options.key ?? this.published[0];
    return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: options.kid ?? key.kid, typ: 'JWT' }).sign(key.privateKey);
  }

  /** An unsecured token (`alg: none`, empty signature). */
  unsigned(claims: Record<string, unknown>): string {
    return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
  }

  /** HS256 keyed with the bytes of a published public key (SPKI PEM): the algorithm-confusion attack. */
  async hmacWithPublicKey(claims: Record<string, unknown>, key: IssuerKey = this.published[0]): Promise<string> {
    const secret = new TextEncoder().encode(await exportSPKI(key.publicKey));
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' }).sign(secret);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    this.requests.push(path);
    const json = (body: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration') {
      return json({
        issuer: this.url,
        jwks_uri: this.jwksUri ?? `${this.url}/jwks`,
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      });
    }
    if (path === '/jwks') return json({ keys: this.published.map((k) => k.publicJwk) });
    res.writeHead(404);
    res.end();
  }
}

/** Claims as GitHub Actions puts them in an ID token, for `repository` with the given id. */
export function githubActionsClaims(
  issuer: string,
  audience: string,
  fields: Partial<Record<string, unknown>> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const repository = (fields.repository as string | undefined) ?? 'acme/tool';
  const ref = (fields.ref as string | undefined) ?? 'refs/tags/v1.0.0';
  return {
    iss: issuer,
    aud: audience,
    sub: `repo:${repository}:ref:${ref}`,
    jti: randomUUID(),
    iat: now,
    nbf: now - 5,
    exp: now + 300,
    repository,
    repository_id: '1001',
    repository_owner: repository.split('/')[0],
    job_workflow_ref: `${repository}/.github/workflows/release.yml@${ref}`,
    ref,
    ref_type: 'tag',
    environment: 'release',
    ...fields,
  };
}
