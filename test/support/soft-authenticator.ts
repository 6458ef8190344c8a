import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests: real ES256 keys, a `none` attestation, and
 * assertions signed as an authenticator signs them. The browser tests use Chromium's virtual
 * authenticator instead.
 */

type Cbor = number | string | Buffer | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  throw new Error('too long for this little encoder');
}

/** The few CBOR shapes a COSE key and an attestation object need. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const entries: [Cbor, Cbor][] = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest();

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string | null;
  signCount: number;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    private readonly origin: string,
    private readonly rpId = new URL(origin).hostname,
  ) {}

  /** Answers creation options (`options` as the API gave them) like navigator.credentials.create. */
  register(options: { challenge: string; user: { id: string } }, flags = UP | UV): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const credentialData = Buffer.concat([Buffer.alloc(16), Buffer.from([id.length >> 8, id.length & 0xff]), id, coseKey]);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([flags | AT]), Buffer.alloc(4), credentialData]);
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false }),
    );
    this.credentials.push({ id, privateKey, userHandle: options.user.id, signCount: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers request options like navigator.credentials.get with the given (default: first) credential. */
  authenticate(
    options: { challenge: string },
    credential = this.credentials[0],
    overrides: { origin?: string; flags?: number } = {},
  ): Record<string, unknown> {
    credential.signCount += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(credential.signCount);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([overrides.flags ?? UP | UV]), count]);
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
