import { basename, relative, resolve } from 'node:path';
import { DEFAULT_MANIFEST_ASSET_CANDIDATES, formatViolation, MANIFEST_FILE_NAMES, readKindsDocument } from '../../lib/manifest';
import type { ExtensionFieldDeclaration, Kind, ValidationResult } from '../../lib/manifest';
import { checkFile, findManifest, kindOfName, readOrUsageError, UsageError } from '../manifest-files';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';

export const summary = 'check a plugin manifest locally, without the network';

const HELP = `usage: registry validate [path] [--kinds FILE] [--tag vX.Y.Z] [--json]

Checks a plugin manifest against the manifest rules, offline.

  path           a manifest file, or a folder holding one (default: the current folder).
                 In a folder the first found is used, in this order: the repository-root
                 names ${MANIFEST_FILE_NAMES.join(', ')}, then the release-asset names
                 ${DEFAULT_MANIFEST_ASSET_CANDIDATES.filter((n) => !MANIFEST_FILE_NAMES.includes(n)).join(', ')}.
                 A note says which it read and names any others found.
  --kinds FILE   the registry's kinds, as returned by GET /api/kinds:
                 {"kinds": [{"key", "label", "description", "extensionFields"}]}, optionally with a
                 top-level "extensionFields" array of global extension fields. Without it any kind
                 matching the pattern is accepted, and a note says kinds were not checked.
  --tag TAG      the release tag; the manifest version must equal it without a leading v.
  --json         print {file, fileKind, valid, violations, notes, manifest_sha256} as JSON.

Exit status: 0 valid, 1 the manifest has violations, 2 usage error (bad option, no manifest found,
unreadable file).
`;

interface ValidateArgs {
  target: string;
  kindsFile?: string;
  tag?: string;
  json: boolean;
  help: boolean;
}

const VALUE_OPTIONS = new Set(['--kinds', '--tag']);

function parseArgs(args: readonly string[]): ValidateArgs {
  const parsed: ValidateArgs = { target: '.', json: false, help: false };
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
    } else if (VALUE_OPTIONS.has(option)) {
      const value = inlineValue ?? args[++index];
      if (value === undefined || value === '') throw new UsageError(`${option} needs a value`);
      if (option === '--kinds') parsed.kindsFile = value;
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

function report(io: CliIo, shownName: string, result: ValidationResult, notes: string[], json: boolean): void {
  const nameKind = kindOfName(basename(shownName));
  if (json) {
    const body = {
      file: shownName,
      fileKind: nameKind,
      valid: result.ok,
      violations: result.ok ? [] : result.violations,
      notes,
      manifest_sha256: result.ok ? result.sha256 : null,
    };
    io.stdout(JSON.stringify(body, null, 2) + '\n');
    return;
  }
  const lines: string[] = [];
  if (result.ok) {
    lines.push(`${shownName} (${nameKind}): valid (${result.manifest.name} ${result.manifest.version})`, `  manifest_sha256: ${result.sha256}`);
  } else {
    const count = result.violations.length;
    lines.push(`${shownName} (${nameKind}): ${count} ${count === 1 ? 'violation' : 'violations'}`);
    for (const item of result.violations) lines.push(`  ${formatViolation(item)}`);
  }
  for (const note of notes) lines.push(`note: ${note}`);
  io.stdout(lines.join('\n') + '\n');
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(args);
    if (parsed.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const registry = parsed.kindsFile === undefined ? { kinds: null } : loadKinds(resolve(io.cwd, parsed.kindsFile));
    const { file, notes: findNotes } = findManifest(resolve(io.cwd, parsed.target));
    const result = checkFile(file, { ...registry, tag: parsed.tag });
    const shownName = relative(io.cwd, file) || basename(file);
    report(io, shownName, result, [...findNotes, ...result.notes], parsed.json);
    return result.ok ? EXIT_OK : EXIT_FAILURE;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`registry validate: ${error.message}\nrun 'registry validate --help' for usage\n`);
    return EXIT_USAGE;
  }
}
