import { createHash, generateKeyPairSync, randomInt, sign } from 'node:crypto';
// The CA and the timestamp authority only, by path: the package's index also loads nock, which
// would patch the process's HTTP client under every other test in the worker.
import { type CA, initializeCA } from '@sigstore/mock/dist/fulcio';
import { initializeTSA, type TSA } from '@sigstore/mock/dist/timestamp';

/**
 * An in-process Sigstore without a log: a Fulcio-like CA and an RFC 3161 timestamp authority
 * (@sigstore/mock), the trusted root that lists just those two, and DSSE in-toto bundles signed
 * with a short-lived certificate for any SAN. Nothing reaches the network.
 */
export interface ProvenanceWorld {
  /** The trusted root JSON naming this CA and TSA (no logs: a tlog threshold of 0). */
  trustedRoot: Record<string, unknown>;
  /** Signs `subjects` (name -> sha256 hex) as an in-toto statement, certified for `san`. */
  bundle(options: BundleOptions): Promise<Record<string, unknown>>;
}

export interface BundleOptions {
  san: string;
  subjects: Record<string, string>;
  /** Extra certificate extensions, as Fulcio writes them (DER UTF8String unless `legacy`). */
  extensions?: { oid: string; value: string; legacy?: boolean }[];
  /** Overrides the statement (e.g. another `_type`); `subjects` is ignored then. */
  statement?: unknown;
  payloadType?: string;
}

const ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';
const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com';
const SHA256_OID = '2.16.840.1.101.3.4.2.1';

const ecKeyPair = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const b64 = (bytes: ArrayBufferView | Buffer) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

function pae(payloadType: string, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(payloadType)} ${payloadType} ${payload.length} `), payload]);
}

function authority(subject: string, chain: ArrayBufferView[]) {
  return {
    subject: { organization: 'sigstore.mock', commonName: subject },
    uri: `https://${subject}.invalid`,
    certChain: { certificates: chain.map((cert) => ({ rawBytes: b64(cert) })) },
    validFor: { start: '2020-01-01T00:00:00Z' },
  };
}

export function trustedRootOf(ca: CA, tsa: TSA): Record<string, unknown> {
  return {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    ctlogs: [],
    certificateAuthorities: [authority('fulcio', [ca.rootCertificate])],
    timestampAuthorities: [authority('tsa', [tsa.intCertificate, tsa.rootCertificate])],
  };
}

export async function provenanceWorld(): Promise<ProvenanceWorld> {
  // Whole seconds: the mock's GeneralizedTime carries milliseconds some parsers refuse. Two
  // seconds ahead, so the roots the mock dates "now" are already valid at it.
  const clock = new Date((Math.floor(Date.now() / 1000) + 2) * 1000);
  const ca = await initializeCA(ecKeyPair(), undefined, clock);
  const tsa = await initializeTSA(ecKeyPair(), clock);
  return {
    trustedRoot: trustedRootOf(ca, tsa),
    async bundle(options) {
      const signer = ecKeyPair();
      const certificate = await ca.issueCertificate({
        publicKey: signer.publicKey.export({ type: 'spki', format: 'der' }),
        subjectAltName: options.san,
        extensions: options.extensions ?? [{ oid: ISSUER_V2, value: GITHUB_ISSUER }],
      });
      const payloadType = options.payloadType ?? 'application/vnd.in-toto+json';
      const statement = options.statement ?? {
        _type: 'https://in-toto.io/Statement/v1',
        subject: Object.entries(options.subjects).map(([name, sha256]) => ({ name, digest: { sha256 } })),
        predicateType: 'https://slsa.dev/provenance/v1',
        predicate: { buildDefinition: { buildType: 'https://actions.github.io/buildtypes/workflow/v1' } },
      };
      const payload = Buffer.from(JSON.stringify(statement));
      const signature = sign('sha256', pae(payloadType, payload), signer.privateKey);
      const timestamp = await tsa.timestamp({ artifactHash: createHash('sha256').update(signature).digest(), hashAlgorithmOID: SHA256_OID, nonce: randomInt(1, 2 ** 31), policyOID: '1.3.6.1.4.1.57264.2', certReq: false });
      return {
        mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
        verificationMaterial: {
          certificate: { rawBytes: b64(certificate) },
          tlogEntries: [],
          timestampVerificationData: { rfc3161Timestamps: [{ signedTimestamp: b64(timestamp) }] },
        },
        dsseEnvelope: { payload: payload.toString('base64'), payloadType, signatures: [{ sig: signature.toString('base64'), keyid: '' }] },
      };
    },
  };
}

/** The SAN GitHub Actions' certificates carry for `workflow` of `repository` at `ref`. */
export function githubWorkflowSan(repository: string, workflow = '.github/workflows/release.yml', ref = 'refs/tags/v1.0.0'): string {
  return `https://github.com/${repository}/${workflow}@${ref}`;
}
