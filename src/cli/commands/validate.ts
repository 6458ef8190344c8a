import { readFileSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import {
  checkManifest,
  formatViolation,
  MANIFEST_FILE_NAMES,
  manifestTooLarge,
  MAX_MANIFEST_BYTES,
  readKindsDocument,
} from '../../lib/manifest';
import type { ExtensionFieldDeclaration, Kind, ValidationResult } from '../../lib/manifest';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';

export const summary = 'check a plugin manifest locally, without the network';

const HELP = `usage: registry validate [path] [--kinds FILE] [--tag vX.Y.Z] [--json]

Checks a plugin manifest against the manifest rules, offline.

  path           a manifest file, or a folder holding one (default: the current folder).
                 In a folder the first of ${MANIFEST_FILE_NAMES.join(', ')} is used;
                 any others found are named in a note.
  --kinds FILE   the registry's kinds, as returned by GET /api/kinds:
                 {"kinds": [{"key", "label", "description", "extensionFields"}]}, optionally with a
                 top-level "extensionFields" array of global extension fields. Without it any kind
                 matching the pattern is accepted, and a note says kinds were not checked.
  --tag TAG      the release tag; the manifest version must equal it without a leading v.
  --json         print {valid, violations, notes, manifest_sha256} as JSON.

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

class UsageError extends Error {}

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

function statOrUsageError(path: string, what: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${what} not found: ${path}` : `cannot read ${what} ${path}: ${code ?? String(error)}`);
  }
}

function readOrUsageError(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The manifest file to check, and notes about any other candidates the folder held. */
function findManifest(target: string): { file: string; notes: string[] } {
  if (!statOrUsageError(target, 'path').isDirectory()) return { file: target, notes: [] };
  const present = MANIFEST_FILE_NAMES.filter((name) => {
    try {
      return statSync(join(target, name)).isFile();
    } catch {
      return false;
    }
  });
  if (present.length === 0) throw new UsageError(`no manifest found in ${target} (looked for ${MANIFEST_FILE_NAMES.join(', ')})`);
  const [chosen, ...others] = present;
  const order = MANIFEST_FILE_NAMES.join(', ');
  const notes = others.length > 0 ? [`also found ${others.join(', ')}; checked ${chosen}, the first in the order ${order}`] : [];
  return { file: join(target, chosen), notes };
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

function checkFile(file: string, options: Parameters<typeof checkManifest>[2]): ValidationResult {
  const size = statOrUsageError(file, 'manifest').size;
  // Refused before reading, as the server refuses an oversized push.
  if (size > MAX_MANIFEST_BYTES) return { ok: false, violations: [manifestTooLarge(size)], notes: [] };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readOrUsageError(file, 'manifest'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return { ok: false, violations: [{ path: '', message: 'manifest: is not valid UTF-8 text' }], notes: [] };
  }
  return checkManifest(text, basename(file), options);
}

function report(io: CliIo, shownName: string, result: ValidationResult, notes: string[], json: boolean): void {
  if (json) {
    const body = {
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
    lines.push(`${shownName}: valid (${result.manifest.name} ${result.manifest.version})`, `  manifest_sha256: ${result.sha256}`);
  } else {
    const count = result.violations.length;
    lines.push(`${shownName}: ${count} ${count === 1 ? 'violation' : 'violations'}`);
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
