import { readKindsDocument } from '../lib/manifest';
import type { ExtensionFieldDeclaration, Kind } from '../lib/manifest';
import type { CliIo } from './command';
import { UsageError } from './manifest-files';

/** Where the author tools find the registry when neither --registry nor REGISTRY_URL names it. */
export const DEFAULT_REGISTRY = 'http://localhost:3000';

/** The registry's base URL without trailing slashes; a usage error when it is not http(s). */
export function registryUrl(value: string): string {
  const url = value.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url) || !URL.canParse(url)) throw new UsageError(`registry '${value}' is not an http(s) URL`);
  return url;
}

/** What the manifest checks need from a registry: its enabled kinds and its global extension fields. */
export interface RegistryKinds {
  kinds: Kind[];
  globalExtensionFields: ExtensionFieldDeclaration[];
}

export type KindsAnswer =
  | { ok: true; kinds: RegistryKinds }
  /** `unreachable`: no HTTP answer at all (refused, reset, timed out); otherwise an answer that was not a kinds document. */
  | { ok: false; unreachable: boolean; reason: string };

/** A kinds document is a few kilobytes; an answer past this is not one. */
const MAX_KINDS_BYTES = 1024 * 1024;
const KINDS_TIMEOUT_MS = 15_000;

async function boundedText(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_KINDS_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads `GET <registry>/api/kinds` (public, the document `registry validate --kinds` takes). One
 * attempt, bounded in time and size; callers decide whether a failure stops them.
 */
export async function readRegistryKinds(io: CliIo, registry: string): Promise<KindsAnswer> {
  let response: Response;
  try {
    response = await io.fetch(`${registry}/api/kinds`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(KINDS_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, unreachable: true, reason: cause?.code ?? cause?.message ?? (error as Error).message };
  }
  let text: string | null;
  try {
    text = await boundedText(response);
  } catch (error) {
    return { ok: false, unreachable: true, reason: (error as Error).message };
  }
  if (!response.ok) return { ok: false, unreachable: false, reason: `it answered HTTP ${response.status}` };
  if (text === null) return { ok: false, unreachable: false, reason: `its answer is larger than ${MAX_KINDS_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, unreachable: false, reason: 'its answer is not JSON' };
  }
  const document = readKindsDocument(value);
  if (!document.ok) return { ok: false, unreachable: false, reason: `its answer is not a kinds list (${document.problems[0]})` };
  return { ok: true, kinds: { kinds: document.kinds, globalExtensionFields: document.globalExtensionFields } };
}
