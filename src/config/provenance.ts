import { readFileSync } from 'node:fs';
import { TrustedRootError, trustedRootMaterial } from '../lib/provenance';
import type { AppConfig } from './config.types';
import { commaList } from './parsers';
import { type ConfigArea, type EnvironmentReader, Invalid } from './variable';

const PROVENANCE_TRUSTED_ROOTS = {
  name: 'PROVENANCE_TRUSTED_ROOTS',
  // Read and parsed here, once: a missing or malformed root stops the start, not the first publish.
  parser: commaList('comma list of trusted_root.json file paths', (path) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      return new Invalid(`${path}: cannot be read as JSON (${(error as Error).message})`);
    }
    try {
      return trustedRootMaterial(path, json);
    } catch (error) {
      if (!(error instanceof TrustedRootError)) throw error;
      return new Invalid(error.message);
    }
  }),
  default: '',
  description:
    'Sigstore trusted roots (`trusted_root.json` files, e.g. a private Fulcio and timestamp authority) that verify provenance bundles at ingest besides the Sigstore public-good root the registry ships. Read once at start; nothing is fetched (no TUF).',
};

export const PROVENANCE: ConfigArea = { title: 'Provenance', variables: [PROVENANCE_TRUSTED_ROOTS] };

export function readProvenance(reader: EnvironmentReader): Pick<AppConfig, 'provenanceTrustedRoots'> {
  return { provenanceTrustedRoots: reader.read(PROVENANCE_TRUSTED_ROOTS) };
}
