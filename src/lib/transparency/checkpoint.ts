/** C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the text a signed tree head's note carries. */
import { HASH_SIZE, type Hash } from './hashing';

export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Hash;
  extensions: string[];
}

/** A checkpoint is three short lines and a few optional extension lines; anything bigger is not one. */
export const MAX_CHECKPOINT_BYTES = 16 * 1024;
const DECIMAL = /^(?:0|[1-9][0-9]{0,15})$/;
const BASE64 = /^[A-Za-z0-9+/]{43}=$/;

function checkLine(line: string, what: string): void {
  if (line === '') throw new CheckpointError(`${what} is empty`);
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) < 0x20) throw new CheckpointError(`${what} holds a control character`);
  }
}

export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  checkLine(origin, 'origin');
  if (!Number.isSafeInteger(size) || size < 0) throw new CheckpointError('size must be a safe integer >= 0');
  if (!(rootHash instanceof Uint8Array) || rootHash.length !== HASH_SIZE) throw new CheckpointError('root hash must be 32 bytes');
  extensions.forEach((line) => checkLine(line, 'extension line'));
  const lines = [origin, String(size), Buffer.from(rootHash).toString('base64'), ...extensions];
  return lines.map((line) => `${line}\n`).join('');
}

/** Strict: every line ends in a newline, the size is canonical decimal, the root exactly 32 bytes. */
export function parseCheckpoint(text: string): Checkpoint {
  if (typeof text !== 'string') throw new CheckpointError('checkpoint is not text');
  if (text.length > MAX_CHECKPOINT_BYTES) throw new CheckpointError(`checkpoint exceeds ${MAX_CHECKPOINT_BYTES} bytes`);
  if (!text.endsWith('\n')) throw new CheckpointError('checkpoint does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new CheckpointError('checkpoint has fewer than three lines');
  lines.forEach((line, i) => checkLine(line, ['origin', 'size', 'root hash'][i] ?? 'extension line'));
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  const size = Number(sizeText);
  if (!DECIMAL.test(sizeText) || !Number.isSafeInteger(size)) throw new CheckpointError('size is not a decimal safe integer');
  if (!BASE64.test(rootText)) throw new CheckpointError('root hash is not 32 bytes of base64');
  const rootHash = new Uint8Array(Buffer.from(rootText, 'base64'));
  if (Buffer.from(rootHash).toString('base64') !== rootText) throw new CheckpointError('root hash is not canonical base64');
  return { origin, size, rootHash, extensions };
}
