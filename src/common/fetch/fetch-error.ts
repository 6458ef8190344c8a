/**
 * Why fetching an asset failed. The ingest maps every one of these to the push 502 ("Fetching an
 * asset URL, or hashing the asset, failed"); the reason lets it log and audit the cause.
 */
export type AssetFetchFailure =
  'bad-url' | 'refused-scheme' | 'refused-address' | 'status' | 'timeout' | 'too-many-redirects' | 'too-large' | 'network' | 'aborted';

/**
 * A failed fetch. The message is written for the publisher: it names the host and the reason and
 * never carries a stack, a Node error message or an address the publisher did not cause us to use.
 */
export interface AssetFetchErrorDetails {
  /** The URL the publisher gave (not the redirect hop that failed). */
  url: string;
  /** The HTTP status, for reason 'status'. */
  status?: number;
  /** For reason 'status': how long the server asked us to wait (Retry-After, an exhausted rate limit), if it did. */
  retryAfterMs?: number;
  /** The asset's name, when the fetch was one of a release's assets. */
  assetName?: string;
  /** For logs only: the underlying Node error, never shown to the publisher. */
  cause?: unknown;
}

/**
 * A failed fetch. The message is written for the publisher: it names the host and the reason and
 * never carries a stack or a raw Node error message.
 */
export class AssetFetchError extends Error {
  readonly url: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly assetName?: string;

  constructor(
    readonly reason: AssetFetchFailure,
    message: string,
    details: AssetFetchErrorDetails,
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'AssetFetchError';
    this.url = details.url;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.assetName = details.assetName;
  }

  /** The same failure, attributed to the named asset so a 502 can say which one failed. */
  forAsset(assetName: string): AssetFetchError {
    return new AssetFetchError(this.reason, `asset "${assetName}": ${this.message}`, { ...this.details(), assetName });
  }

  /** The same failure reported against the URL the publisher gave rather than a redirect hop. */
  forUrl(url: string): AssetFetchError {
    return new AssetFetchError(this.reason, this.message, { ...this.details(), url });
  }

  private details(): AssetFetchErrorDetails {
    return { url: this.url, status: this.status, assetName: this.assetName, cause: this.cause };
  }
}

function errorCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : undefined;
}

/** Node network errors carry a stable `code` (ECONNREFUSED, ...); the rest of their text is withheld. */
export function networkFailure(host: string, url: string, cause: unknown): AssetFetchError {
  const code = errorCode(cause);
  return new AssetFetchError('network', `connection to ${host} failed${code ? ` (${code})` : ''}`, { url, cause });
}
