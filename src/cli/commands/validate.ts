import { basename, relative, resolve } from 'node:path';
import { DEFAULT_MANIFEST_ASSET_CANDIDATES, formatViolation, MANIFEST_FILE_NAMES, readKindsDocument } from '../../lib/manifest';
import type { ExtensionFieldDeclaration, Kind, ValidationResult } from '../../lib/manifest';
import { checkFile, findManifest, kindOfName, readOrUsageError, UsageError } from '../manifest-files';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';
import { readRegistryKinds, registryUrl, type RegistryKinds } from '../registry-kinds';

export const summary = "check a plugin manifest against the manifest rules and a registry's kinds and extension fields";

const HELP = `usage: registry validate [path] [--registry URL | --kinds FILE | --offline] [--tag vX.Y.Z] [--json]

Checks a plugin manifest against the manifest rules and, when it knows the registry, against the
registry's kinds and extension fields (read from its public GET /api/kinds). Nothing is sent.

  path           a manifest file, or a folder holding one (default: the current folder).
                 In a folder the first found is used, in this order: the repository-root
                 names ${MANIFEST_FILE_NAMES.join(', ')}, then the release-asset names
                 ${DEFAULT_MANIFEST_ASSET_CANDIDATES.filter((n) => !MANIFEST_FILE_NAMES.includes(n)).join(', ')}.
                 A note says which it read and names any others found.
  --registry URL the registry whose kinds and extension fields apply (default: REGISTRY_URL,
                 when set). If it cannot be read, a warning says so and the check runs offline.
  --kinds FILE   the registry's kinds saved to a file, as returned by GET /api/kinds:
                 {"kinds": [{"key", "label", "description", "extensionFields"}]}, optionally with a
                 top-level "extensionFields" array of global extension fields.
  --offline      read no registry, even when REGISTRY_URL is set.
  --tag TAG      the release tag; the manifest version must equal it without a leading v.
  --json         print {file, fileKind, valid, violations, warnings, notes, kinds, manifest_sha256}.

Without a registry's kinds (offline), any kind matching the pattern is accepted and a top-level
field the manifest format does not define is a warning, not a violation: it may be an extension
field of the registry, which decides when the release is pushed.

Exit status: 0 valid (warnings allowed), 1 the manifest has violations, 2 usage error (bad
option, no manifest found, unreadable file).
`;

interface ValidateArgs {
  target: string;
  registry?: string;
  offline: boolean;
  kindsFile?: string;
  tag?: string;
  json: boolean;
  help: boolean;
}

const VALUE_OPTIONS = new Set(['--kinds', '--tag', '--registry']);

function parseArgs(args: readonly string[]): ValidateArgs {
  const parsed: ValidateArgs = { target: '.', offline: false, json: false, help: false };
  let targetSeen = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = equals > 0 ? arg.slice(0, equals) : arg;
    const inlineValue = equals > 0 ? arg.slice(equals + 1) : undefined;
    if (option === '--help' || option === '-h') {
      parsed.help = true;
    } else if (option === '--json') {
      parsed.json = true;
    } else if (option === '--offline') {
      parsed.offline = true;
    } else if (VALUE_OPTIONS.has(option)) {
      const value = inlineValue ?? args[++index];
      if (value === undefined || value === '') throw new UsageError(`${option} needs a value`);
      if (option === '--kinds') parsed.kindsFile = value;
      else if (option === '--registry') parsed.registry = registryUrl(value);
      else parsed.tag = value;
    } else if (option.startsWith('-') && option !== '-') {
      throw new UsageError(`unknown option '${option}'`);
    } else if (targetSeen) {
      throw new UsageError(`only one path may be given (got '${parsed.target}' and '${arg}')`);
    } else {
      parsed.target = arg;
      targetSeen = true;
    }
  }
  const given = [parsed.registry && '--registry', parsed.kindsFile && '--kinds', parsed.offline && '--offline'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} cannot be given together: the kinds come from one place`);
  return parsed;
}

function loadKinds(path: string): { kinds: Kind[]; globalExtensionFields: ExtensionFieldDeclaration[] } {
  let value: unknown;
  try {
    value = JSON.parse(readOrUsageError(path, 'kinds file').toString('utf8'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`kinds file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const document = readKindsDocument(value);
  if (!document.ok) throw new UsageError(`kinds file ${path} is not a kinds list:\n  ${document.problems.join('\n  ')}`);
  return document;
}

/** Where the kinds the manifest was checked against came from. */
type KindsSource =
  { source: 'registry'; registry: string } | { source: 'file'; file: string } | { source: 'none'; registry?: string; error?: string };

interface Outcome {
  result: ValidationResult;
  notes: string[];
  kinds: KindsSource;
}

function report(io: CliIo, shownName: string, { result, notes, kinds }: Outcome, json: boolean): void {
  const nameKind = kindOfName(basename(shownName));
  const unread =
    kinds.source === 'none' && kinds.error !== undefined
      ? `could not read the kinds of ${kinds.registry} (${kinds.error}); checked without them`
      : null;
  if (json) {
    const body = {
      file: shownName,
      fileKind: nameKind,
      valid: result.ok,
      violations: result.ok ? [] : result.violations,
      warnings: [...(unread ? [{ path: '', message: unread }] : []), ...result.warnings],
      notes,
      kinds,
      manifest_sha256: result.ok ? result.sha256 : null,
    };
    io.stdout(JSON.stringify(body, null, 2) + '\n');
    return;
  }
  const lines: string[] = [];
  if (result.ok) {
    lines.push(
      `${shownName} (${nameKind}): valid (${result.manifest.name} ${result.manifest.version})`,
      `  manifest_sha256: ${result.sha256}`,
    );
  } else {
    const count = result.violations.length;
    lines.push(`${shownName} (${nameKind}): ${count} ${count === 1 ? 'violation' : 'violations'}`);
    for (const item of result.violations) lines.push(`  ${formatViolation(item)}`);
  }
  if (unread) lines.push(`warning: ${unread}`);
  for (const item of result.warnings) lines.push(`warning: ${formatViolation(item)}`);
  for (const note of notes) lines.push(`note: ${note}`);
  io.stdout(lines.join('\n') + '\n');
}

/** The kinds to check against: a file, the registry's, or none (offline, or the registry could not be read). */
async function kindsFor(io: CliIo, parsed: ValidateArgs): Promise<{ options: RegistryKinds | { kinds: null }; kinds: KindsSource }> {
  if (parsed.kindsFile !== undefined)
    return { options: loadKinds(resolve(io.cwd, parsed.kindsFile)), kinds: { source: 'file', file: parsed.kindsFile } };
  const registry = parsed.registry ?? (parsed.offline || !io.env.REGISTRY_URL ? undefined : registryUrl(io.env.REGISTRY_URL));
  if (registry === undefined) return { options: { kinds: null }, kinds: { source: 'none' } };
  const answer = await readRegistryKinds(io, registry);
  if (!answer.ok) return { options: { kinds: null }, kinds: { source: 'none', registry, error: answer.reason } };
  return { options: answer.kinds, kinds: { source: 'registry', registry } };
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(args);
    if (parsed.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const { file, notes: findNotes } = findManifest(resolve(io.cwd, parsed.target));
    const { options, kinds } = await kindsFor(io, parsed);
    const result = checkFile(file, { ...options, tag: parsed.tag });
    const shownName = relative(io.cwd, file) || basename(file);
    const checkedAgainst = kinds.source === 'registry' ? [`checked against the kinds and extension fields of ${kinds.registry}`] : [];
    report(io, shownName, { result, notes: [...findNotes, ...checkedAgainst, ...result.notes], kinds }, parsed.json);
    return result.ok ? EXIT_OK : EXIT_FAILURE;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`registry validate: ${error.message}\nrun 'registry validate --help' for usage\n`);
    return EXIT_USAGE;
  }
}
