import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { TrustedRootError, trustedRootMaterial } from '../lib/provenance';
import type { AppConfig } from './config.types';
import { commaList, map } from './parsers';
import { type ConfigArea, type EnvironmentReader, Invalid } from './variable';

const PROVENANCE_TRUSTED_ROOTS = {
  name: 'PROVENANCE_TRUSTED_ROOTS',
  // Read and parsed here, once: a missing or malformed root stops the start, not the first publish.
  parser: map(
    commaList('comma list of trusted_root.json file paths', (path) => {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        return new Invalid(`${path}: cannot be read as JSON (${(error as Error).message})`);
      }
      try {
        return trustedRootMaterial(path, json, path);
      } catch (error) {
        if (!(error instanceof TrustedRootError)) throw error;
        return new Invalid(error.message);
      }
    }),
    // A file path says where the server keeps its secrets; publishers see a label instead.
    (roots) => Object.freeze(roots.map((root, i) => ({ ...root, name: `operator root #${i + 1} (${basename(root.source ?? '')})` }))),
  ),
  default: '',
  description:
    'Sigstore trusted roots (`trusted_root.json` files, e.g. a private Fulcio and timestamp authority) that verify provenance bundles at ingest besides the Sigstore public-good root the registry ships. Read once at start; nothing is fetched (no TUF). Problems and audit entries name each as `operator root #<n> (<file name>)`, never by its path; the start-up log maps the labels to paths.',
};

export const PROVENANCE: ConfigArea = { title: 'Provenance', variables: [PROVENANCE_TRUSTED_ROOTS] };

export function readProvenance(reader: EnvironmentReader): Pick<AppConfig, 'provenanceTrustedRoots'> {
  return { provenanceTrustedRoots: reader.read(PROVENANCE_TRUSTED_ROOTS) };
}
