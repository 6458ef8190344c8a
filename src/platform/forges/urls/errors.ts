/** What a forge URL builder refused. Inputs reach the builders from manifests and webhook payloads. */
export type ForgeUrlErrorCode = 'INVALID_REPO_PATH' | 'INVALID_REF' | 'INVALID_FILE_PATH';

export class ForgeUrlError extends Error {
  override readonly name = 'ForgeUrlError';

  constructor(
    readonly code: ForgeUrlErrorCode,
    message: string,
  ) {
    super(message);
  }
}
