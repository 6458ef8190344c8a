/** One hashed release asset, as listed both in `integrity.assets` and inside the signed payload. */
export interface IntegrityAsset {
  name: string;
  /** Lowercase hex SHA-256 of the asset bytes. */
  sha256: string;
  size: number;
  contentType: string;
  arch: string;
  os: string;
  /** A build-provenance attestation bundle, or null. Carried, not interpreted, by this module. */
  attestation: unknown | null;
}

/** The document whose RFC 8785 canonical bytes are the JWS payload. */
export interface SignedPayload {
  slug: string;
  version: string;
  manifest_sha256: string;
  assets: IntegrityAsset[];
}

export interface ReleaseIntegrity {
  /** JWS compact serialization over the SignedPayload. */
  jws: string;
  /** Unsigned copy of the payload's assets; informative only, the JWS is the source of truth. */
  assets: IntegrityAsset[];
}

export interface ReleaseAssetLink {
  name: string;
  url: string;
  size: number;
}

/** The body of GET /api/plugins/:slug/releases/:version. */
export interface ReleaseRecord {
  slug: string;
  version: string;
  assets: ReleaseAssetLink[];
  /** Absent on legacy releases ingested before signing existed. */
  integrity?: ReleaseIntegrity;
  yanked?: boolean;
}

export interface PublicJwk {
  kid: string;
  kty: 'OKP';
  crv: 'Ed25519';
  /** base64url (no padding) of the 32-byte Ed25519 public key. */
  x: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The body of GET /.well-known/registry-key.json: the current key and the previous one. */
export interface KeySet {
  keys: PublicJwk[];
}
