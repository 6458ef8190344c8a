/** `registry verify`'s command line: its usage text and its options. */
import type { CliIo } from './command';
import { parseValueFlags, UsageError } from './value-flags';

export const VERIFY_USAGE = `usage: registry verify <slug>@<version> [--registry URL] [--asset NAME] [--file PATH] [--keys FILE] [--state FILE]
                       [--require-log] [--trusted-root FILE]... [--issuer URL]... [--workflow PATH]...
                       [--require-provenance]

  --registry URL  registry base URL (default: $REGISTRY_URL or http://localhost:3000)
  --asset NAME    verify only this asset (default: every asset of the release)
  --file PATH     hash this local file as the asset instead of downloading it
  --keys FILE     use a saved key set instead of fetching it (no refresh on an unknown kid)
  --state FILE    where the largest verified tree head per registry is remembered
                  (default: $XDG_STATE_HOME/registry/log-heads.json or ~/.local/state/registry/log-heads.json)
  --require-log   fail (exit 1) when the release names no transparency log entry, instead of
                  warning: pass it when the registry has had a log since you first used it
  --trusted-root FILE  also trust this Sigstore trusted_root.json (repeatable) besides the
                  public-good root the CLI ships, as the registry's PROVENANCE_TRUSTED_ROOTS
  --issuer URL    the OIDC issuer the provenance certificate must name (repeatable: any of them);
                  needed to pin the issuer of a forge other than github.com and gitlab.com
  --workflow PATH the CI workflow that must have signed the provenance (repeatable: any of them),
                  e.g. .github/workflows/release.yml, whatever the registry says of the publisher
  --require-provenance  fail (exit 4) unless the release has a Sigstore provenance bundle that
                  verifies, with its issuer pinned

The release must also be in the registry's transparency log: the signed tree head is checked
with the key set, the release's entry by an inclusion proof, and the head by a consistency proof
from the largest head verified before (a release from before the log only warns, unless
--require-log).

When the signed assets carry a Sigstore provenance bundle, it is verified offline: signature,
certificate chain and log entry or timestamp against the trusted roots, the signer is the CI of
the plugin's repository (and the trusted publisher's workflow, and --workflow), its issuer is the
forge's CI issuer (github.com, gitlab.com) or an --issuer, every checked asset's SHA-256 is a
subject of its statement. On another forge without --issuer the issuer is reported as not pinned.

exit status: 0 verified, 1 verification failed (or, with --require-log, the release is not in the log),
             2 usage error or registry unreachable,
             3 the log's tree head is not consistent with one verified before (a forked view),
             4 the provenance bundle was refused (or is missing, not Sigstore or its issuer not
               pinned, with --require-provenance)
`;

export interface VerifyOptions {
  slug: string;
  version: string;
  registry: string;
  assetName?: string;
  filePath?: string;
  keysPath?: string;
  statePath?: string;
  requireLog: boolean;
  trustedRoots: string[];
  /** Pinned OIDC issuers, without a trailing slash; empty: the CLI's own for a known forge. */
  issuers: string[];
  /** Pinned workflows; empty: only the trusted publisher's, when the registry names one. */
  workflows: string[];
  requireProvenance: boolean;
}

const VALUE_FLAGS = {
  '--registry': 'registry',
  '--asset': 'assetName',
  '--file': 'filePath',
  '--keys': 'keysPath',
  '--state': 'statePath',
} as const;
const REPEATABLE = { '--trusted-root': 'trustedRoots', '--issuer': 'issuers', '--workflow': 'workflows' } as const;
const SWITCHES = { '--require-provenance': 'requireProvenance', '--require-log': 'requireLog' } as const;

type Repeated = Record<(typeof REPEATABLE)[keyof typeof REPEATABLE], string[]>;
type Switched = Record<(typeof SWITCHES)[keyof typeof SWITCHES], boolean>;

/** The repeatable flags and the switches, taken out before the single-value flags. */
function repeatableFlags(args: string[]): { rest: string[]; repeated: Repeated; switched: Switched } {
  const rest: string[] = [];
  const repeated: Repeated = { trustedRoots: [], issuers: [], workflows: [] };
  const switched: Switched = { requireProvenance: false, requireLog: false };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (Object.hasOwn(SWITCHES, arg)) switched[SWITCHES[arg as keyof typeof SWITCHES]] = true;
    else if (Object.hasOwn(REPEATABLE, flag)) {
      const value = flag === arg ? args[++index] : arg.slice(flag.length + 1);
      if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
      repeated[REPEATABLE[flag as keyof typeof REPEATABLE]].push(value);
    } else rest.push(arg);
  }
  return { rest, repeated, switched };
}

function issuerUrl(value: string): string {
  if (!/^https?:\/\//.test(value) || !URL.canParse(value)) throw new UsageError(`--issuer '${value}' is not an http(s) URL`);
  return value.replace(/\/+$/, '');
}

export function parseVerifyArgs(args: string[], io: CliIo): VerifyOptions {
  const { rest, repeated, switched } = repeatableFlags(args);
  const { values, positional } = parseValueFlags(rest, VALUE_FLAGS);
  if (positional.length !== 1) throw new UsageError('expected exactly one <slug>@<version>');
  const target = positional[0] as string;
  const at = target.lastIndexOf('@');
  if (at <= 0 || at === target.length - 1) throw new UsageError(`'${target}' is not <slug>@<version>`);
  const registry = (values.registry ?? io.env.REGISTRY_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(registry) || !URL.canParse(registry)) throw new UsageError(`registry '${registry}' is not an http(s) URL`);
  return {
    slug: target.slice(0, at),
    version: target.slice(at + 1),
    registry,
    assetName: values.assetName,
    filePath: values.filePath,
    keysPath: values.keysPath,
    statePath: values.statePath,
    ...switched,
    ...repeated,
    issuers: repeated.issuers.map(issuerUrl),
  };
}
