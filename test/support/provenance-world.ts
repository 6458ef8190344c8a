import { createHash, generateKeyPairSync, randomInt, sign } from 'node:crypto';
// The CA and the timestamp authority only, by path: the package's index also loads nock, which
// would patch the process's HTTP client under every other test in the worker.
import { type CA, initializeCA } from '@sigstore/mock/dist/fulcio';
import { initializeTLog } from '@sigstore/mock/dist/rekor';
import { initializeTSA, type TSA } from '@sigstore/mock/dist/timestamp';

/**
 * An in-process Sigstore without a log: a Fulcio-like CA and an RFC 3161 timestamp authority
 * (@sigstore/mock), the trusted root that lists just those two, and DSSE in-toto bundles signed
 * with a short-lived certificate for any SAN. Nothing reaches the network.
 */
export interface ProvenanceWorld {
  /** The trusted root JSON naming this CA and TSA (no logs: a tlog threshold of 0). */
  trustedRoot: Record<string, unknown>;
  /** The same root listing this world's transparency log too (a tlog threshold of 1). */
  trustedRootWithLog: Record<string, unknown>;
  /** Signs `subjects` (name -> sha256 hex) as an in-toto statement, certified for `san`. */
  bundle(options: BundleOptions): Promise<Record<string, unknown>>;
}

export interface BundleOptions {
  san: string;
  subjects: Record<string, string>;
  /**
   * The certificate's Fulcio extensions, as Fulcio writes them (DER UTF8String unless `legacy`,
   * raw bytes). Default: the issuer (`issuer`) and the source repository (`sourceRepository`).
   */
  extensions?: { oid: string; value: string; legacy?: boolean }[];
  /** The OIDC issuer of the default extensions (GitHub Actions'). */
  issuer?: string;
  /** The source repository of the default extensions: the SAN's own repository unless given. */
  sourceRepository?: string;
  /** Overrides the statement (e.g. another `_type`); `subjects` is ignored then. */
  statement?: unknown;
  payloadType?: string;
  /**
   * A DSSE entry in this world's transparency log, with an inclusion proof, integrated at
   * `integratedTime`, and with an inclusion promise (a signed entry timestamp) only when `promise`.
   */
  logEntry?: { integratedTime: Date; promise: boolean };
}

const ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';
const SOURCE_REPOSITORY_URI = '1.3.6.1.4.1.57264.1.12';
export const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com';

/** The repository a SAN names: the part before `/.github/workflows/...` (or GitLab's `//`). */
export function sanRepository(san: string): string {
  const workflows = san.search(/\/\.(github|gitea|forgejo)\/workflows\//);
  if (workflows > 0) return san.slice(0, workflows);
  const gitlab = san.indexOf('//', san.indexOf('://') + 3);
  return gitlab > 0 ? san.slice(0, gitlab) : san;
}
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

const LOG_URL = 'https://rekor.sigstore.mock';

/** A Rekor v1 log entry as the mock log answers it. */
type LoggedEntry = {
  body: string;
  integratedTime: number;
  logIndex: number;
  verification?: {
    signedEntryTimestamp?: string;
    inclusionProof?: { logIndex: number; treeSize: number; rootHash: string; checkpoint: string };
  };
};

export async function provenanceWorld(): Promise<ProvenanceWorld> {
  // Whole seconds: the mock's GeneralizedTime carries milliseconds some parsers refuse. Two
  // seconds ahead, so the roots the mock dates "now" are already valid at it.
  const clock = new Date((Math.floor(Date.now() / 1000) + 2) * 1000);
  const ca = await initializeCA(ecKeyPair(), undefined, clock);
  const tsa = await initializeTSA(ecKeyPair(), clock);
  const logKeys = ecKeyPair();
  const logKey = logKeys.publicKey.export({ type: 'spki', format: 'der' });
  const logId = createHash('sha256').update(logKey).digest();
  const trustedRoot = trustedRootOf(ca, tsa);
  const tlog = {
    baseUrl: LOG_URL,
    hashAlgorithm: 'SHA2_256',
    publicKey: { rawBytes: b64(logKey), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start: '2000-01-01T00:00:00Z' } },
    logId: { keyId: b64(logId) },
  };
  return {
    trustedRoot,
    trustedRootWithLog: { ...trustedRoot, tlogs: [tlog] },
    async bundle(options) {
      const signer = ecKeyPair();
      const certificate = await ca.issueCertificate({
        publicKey: signer.publicKey.export({ type: 'spki', format: 'der' }),
        subjectAltName: options.san,
        extensions: options.extensions ?? [
          { oid: ISSUER_V2, value: options.issuer ?? GITHUB_ISSUER },
          { oid: SOURCE_REPOSITORY_URI, value: options.sourceRepository ?? sanRepository(options.san) },
        ],
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
      const timestamp = await tsa.timestamp({
        artifactHash: createHash('sha256').update(signature).digest(),
        hashAlgorithmOID: SHA256_OID,
        nonce: randomInt(1, 2 ** 31),
        policyOID: '1.3.6.1.4.1.57264.2',
        certReq: false,
      });
      const tlogEntries = [];
      if (options.logEntry) {
        const log = await initializeTLog(LOG_URL, logKeys, options.logEntry.integratedTime);
        const dsse = {
          signatures: [{ signature: signature.toString('base64'), verifier: b64(certificate) }],
          payloadHash: { algorithm: 'sha256', value: createHash('sha256').update(payload).digest('hex') },
        };
        const [entry] = Object.values(await log.log({ kind: 'dsse', apiVersion: '0.0.1', spec: dsse })) as LoggedEntry[];
        const proof = entry.verification!.inclusionProof!;
        tlogEntries.push({
          logIndex: String(entry.logIndex),
          logId: { keyId: b64(logId) },
          kindVersion: { kind: 'dsse', version: '0.0.1' },
          integratedTime: String(entry.integratedTime),
          ...(options.logEntry.promise ? { inclusionPromise: { signedEntryTimestamp: entry.verification!.signedEntryTimestamp } } : {}),
          inclusionProof: {
            logIndex: String(proof.logIndex),
            rootHash: Buffer.from(proof.rootHash, 'hex').toString('base64'),
            treeSize: String(proof.treeSize),
            hashes: [],
            checkpoint: { envelope: proof.checkpoint },
          },
          canonicalizedBody: entry.body,
        });
      }
      return {
        mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
        verificationMaterial: {
          certificate: { rawBytes: b64(certificate) },
          tlogEntries,
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
