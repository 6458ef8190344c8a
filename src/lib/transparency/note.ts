/**
 * C2SP signed-note (https://c2sp.org/signed-note), Ed25519 signatures only: the envelope of the
 * checkpoint, readable by Go's golang.org/x/mod/sumdb/note and the witness tooling.
 */
import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';

export class NoteError extends Error {
  override readonly name = 'NoteError';
}

const ED25519_TYPE = 0x01;
const ED25519_KEY_SIZE = 32;
const ED25519_SIGNATURE_SIZE = 64;
const SIGNATURE_PREFIX = '\u2014 ';
/** Notes are checkpoints with a handful of cosignatures; the bound keeps a hostile server cheap to refuse. */
export const MAX_NOTE_BYTES = 64 * 1024;
/** Go's note.Open refuses more than 100 signature lines, for the same reason. */
const MAX_SIGNATURES = 100;
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Go's unicode.IsSpace is White_Space, which also holds U+0085 that \s leaves out.
const NAME_FORBIDDEN = /[\s\u0085+]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isValidName(name: string): boolean {
  return name !== '' && !NAME_FORBIDDEN.test(name) && !LONE_SURROGATE.test(name) && !hasControl(name, false);
}

function hasControl(text: string, allowNewline: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && !(allowNewline && code === 0x0a)) return true;
  }
  return false;
}

/** Strict standard base64 (padded, canonical): one byte string, one text. */
function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

function encodedKey(publicKey: Uint8Array): Uint8Array {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_KEY_SIZE) throw new NoteError('an Ed25519 public key is 32 bytes');
  return Uint8Array.of(ED25519_TYPE, ...publicKey);
}

/** First 4 bytes of SHA-256(name || "\n" || 0x01 || key). */
export function noteKeyHash(name: string, publicKey: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(name, 'utf8').update('\n').update(encodedKey(publicKey)).digest();
  return new Uint8Array(digest.subarray(0, 4));
}

/** `<name>+<hex key hash>+<base64(0x01 || key)>`, the vkey format of Go's note package. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isValidName(name)) throw new NoteError('a key name is non-empty, without spaces or "+"');
  const hash = Buffer.from(noteKeyHash(name, publicKey)).toString('hex');
  return `${name}+${hash}+${Buffer.from(encodedKey(publicKey)).toString('base64')}`;
}

export function parseVerifierKey(text: string): { name: string; keyHash: Uint8Array; publicKey: Uint8Array } {
  if (typeof text !== 'string' || text.length > 1024) throw new NoteError('malformed verifier key');
  // name+hash+key, cut at the first two "+" only: the base64 key may itself hold a "+" (as Go's note.NewVerifier cuts).
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  const [name, hashHex, keyBase64] = second < 0 ? [] : [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  const key = keyBase64 === undefined ? undefined : decodeBase64(keyBase64);
  if (name === undefined || !isValidName(name) || !/^[0-9a-f]{8}$/.test(hashHex!) || !key) {
    throw new NoteError('malformed verifier key');
  }
  if (key[0] !== ED25519_TYPE || key.length !== 1 + ED25519_KEY_SIZE) throw new NoteError('verifier key is not an Ed25519 key');
  const publicKey = key.subarray(1);
  const keyHash = noteKeyHash(name!, publicKey);
  if (Buffer.from(keyHash).toString('hex') !== hashHex) throw new NoteError('verifier key hash does not match the key');
  return { name: name!, keyHash, publicKey };
}

export interface NoteSigner {
  name: string;
  publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** Signs `text` (which ends in a newline) with each signer, in order. */
export async function signNote(text: string, signers: NoteSigner[]): Promise<string> {
  if (typeof text !== 'string' || !text.endsWith('\n') || hasControl(text, true) || LONE_SURROGATE.test(text)) {
    throw new NoteError('malformed note text');
  }
  const message = new TextEncoder().encode(text);
  const lines: string[] = [];
  for (const signer of signers) {
    if (!isValidName(signer.name)) throw new NoteError('invalid signer name');
    const signature = await signer.sign(message);
    if (signature.length !== ED25519_SIGNATURE_SIZE) throw new NoteError('signer returned no Ed25519 signature');
    const keyHash = noteKeyHash(signer.name, signer.publicKey);
    lines.push(`${SIGNATURE_PREFIX}${signer.name} ${Buffer.concat([keyHash, signature]).toString('base64')}\n`);
  }
  return `${text}\n${lines.join('')}`;
}

export interface NoteVerifier {
  name: string;
  publicKey: Uint8Array;
}

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
}

function decodeNote(note: string | Uint8Array): string {
  const size = typeof note === 'string' ? Buffer.byteLength(note, 'utf8') : note instanceof Uint8Array ? note.length : -1;
  if (size < 0) throw new NoteError('malformed note');
  if (size > MAX_NOTE_BYTES) throw new NoteError(`note exceeds ${MAX_NOTE_BYTES} bytes`);
  if (typeof note === 'string') return note;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(note);
  } catch {
    throw new NoteError('malformed note');
  }
}

/**
 * Opens a signed note: returns its text and the names of the known keys whose signatures verified.
 * Signatures by unknown keys are ignored; a known key with a bad signature, a note no known key
 * signed, or any syntax error throws NoteError.
 */
export function openNote(note: string | Uint8Array, verifiers: NoteVerifier[]): { text: string; verifiedBy: string[] } {
  const message = decodeNote(note);
  if (hasControl(message, true) || LONE_SURROGATE.test(message)) throw new NoteError('malformed note');
  const split = message.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('malformed note');
  const text = message.slice(0, split + 1);
  const block = message.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) throw new NoteError('malformed note');
  const signatureLines = block.slice(0, -1).split('\n');
  if (signatureLines.length > MAX_SIGNATURES) throw new NoteError('malformed note');

  const known = verifiers.map((v) => ({ name: v.name, publicKey: v.publicKey, keyHash: Buffer.from(noteKeyHash(v.name, v.publicKey)) }));
  const textBytes = Buffer.from(text, 'utf8');
  const verifiedBy: string[] = [];
  const seen = new Set<string>();
  for (const line of signatureLines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new NoteError('malformed note');
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space < 0 ? rest : rest.slice(0, space);
    const signature = space < 0 ? undefined : decodeBase64(rest.slice(space + 1));
    if (!isValidName(name) || !signature || signature.length < 5) throw new NoteError('malformed note');
    const keyHash = signature.subarray(0, 4);
    const id = `${name}+${Buffer.from(keyHash).toString('hex')}`;
    const matches = known.filter((k) => k.name === name && k.keyHash.equals(keyHash));
    if (matches.length === 0 || seen.has(id)) continue;
    if (matches.length > 1) throw new NoteError(`ambiguous key ${id}`);
    seen.add(id);
    const raw = signature.subarray(4);
    if (raw.length !== ED25519_SIGNATURE_SIZE || !verifySignature(null, textBytes, publicKeyObject(matches[0]!.publicKey), raw)) {
      throw new NoteError(`invalid signature for key ${id}`);
    }
    if (!verifiedBy.includes(name)) verifiedBy.push(name);
  }
  if (verifiedBy.length === 0) throw new NoteError('note has no verifiable signatures');
  return { text, verifiedBy };
}
