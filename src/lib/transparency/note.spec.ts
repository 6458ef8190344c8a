/** Known answers from golang.org/x/mod sumdb/note (BSD-3-Clause): keys, signed notes, refusals. */
import { createPrivateKey, sign } from 'node:crypto';
import { formatVerifierKey, NoteError, noteKeyHash, openNote, parseVerifierKey, signNote, type NoteSigner } from './note';
import { readVectors, toHex } from './testdata/vectors';

interface NoteVectors {
  verifierKeys: { peter: string; enoch: string };
  badVerifierKeys: string[];
  signerKey: string;
  text: string;
  peterSig: string;
  enochSig: string;
  signed: string;
  badMessages: string[];
  invalidSignature: string;
}

const v = readVectors<NoteVectors>('golang-note.json');
const peter = parseVerifierKey(v.verifierKeys.peter);
const enoch = parseVerifierKey(v.verifierKeys.enoch);
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Go's "PRIVATE+KEY+name+hash+base64(0x01 || seed)" as a NoteSigner. */
function goSigner(skey: string): NoteSigner {
  const [, , name, , ...encoded] = skey.split('+'); // base64 may itself hold '+'
  const seed = Buffer.from(encoded.join('+'), 'base64').subarray(1);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return { name: name!, publicKey: peter.publicKey, sign: (message) => new Uint8Array(sign(null, message, privateKey)) };
}

describe('verifier keys (TestNewVerifier)', () => {
  it('parses the published keys and recomputes their key hashes', () => {
    expect(peter.name).toBe('PeterNeumann');
    expect(toHex(peter.keyHash)).toBe('c74f20a3');
    expect(toHex(noteKeyHash('EnochRoot', enoch.publicKey))).toBe('af0cfe78');
    expect(formatVerifierKey(peter.name, peter.publicKey)).toBe(v.verifierKeys.peter);
    expect(formatVerifierKey(enoch.name, enoch.publicKey)).toBe(v.verifierKeys.enoch);
  });

  it("round-trips keys whose base64 holds '+' and '/'", () => {
    for (let seed = 0; seed < 64; seed++) {
      const publicKey = new Uint8Array(32).fill(seed * 4 + 0xf8);
      const text = formatVerifierKey('example.com/log', publicKey);
      expect(parseVerifierKey(text)).toEqual({ name: 'example.com/log', keyHash: noteKeyHash('example.com/log', publicKey), publicKey });
    }
    expect(formatVerifierKey('a', new Uint8Array(32).fill(0xfb))).toMatch(/\+.*\+.*\+/);
  });

  it('parses a key whose base64 holds a "+" (only the first two "+" separate the fields)', () => {
    const publicKey = new Uint8Array(32).fill(0xfb);
    const text = formatVerifierKey('registry.example.org:8443/log', publicKey);
    expect(text.split('+').length).toBeGreaterThan(3);
    expect(parseVerifierKey(text)).toEqual({
      name: 'registry.example.org:8443/log',
      keyHash: noteKeyHash('registry.example.org:8443/log', publicKey),
      publicKey,
    });
  });

  it('refuses every substring and every one-byte change of a key, and the two crafted bad keys', () => {
    const key = v.verifierKeys.peter;
    const mangled = new Set<string>(v.badVerifierKeys);
    for (let i = 0; i <= key.length; i++)
      for (let j = i + 1; j <= key.length; j++) if (i !== 0 || j !== key.length) mangled.add(key.slice(i, j));
    for (let i = 0; i < key.length; i++) mangled.add(key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1));
    for (const bad of mangled) expect(() => parseVerifierKey(bad)).toThrow(NoteError);
  });
});

describe('signing (TestSign)', () => {
  it('produces the published signed note byte for byte', async () => {
    await expect(signNote(v.text, [goSigner(v.signerKey)])).resolves.toBe(v.signed);
  });

  it('refuses text without a final newline and signers with bad names', async () => {
    await expect(signNote('abc', [goSigner(v.signerKey)])).rejects.toThrow(NoteError);
    await expect(signNote(v.text, [{ ...goSigner(v.signerKey), name: 'bad name' }])).rejects.toThrow(NoteError);
  });
});

describe('opening (TestOpen, TestVerifierList)', () => {
  const both = v.text + '\n' + v.peterSig + v.enochSig;

  it('verifies the known signature and ignores the unknown one', () => {
    expect(openNote(both, [peter])).toEqual({ text: v.text, verifiedBy: ['PeterNeumann'] });
    expect(openNote(both, [peter, enoch])).toEqual({ text: v.text, verifiedBy: ['PeterNeumann', 'EnochRoot'] });
    expect(openNote(new TextEncoder().encode(both), [enoch]).verifiedBy).toEqual(['EnochRoot']);
  });

  it('refuses a note no known key signed', () => {
    expect(() => openNote(both, [])).toThrow(new NoteError('note has no verifiable signatures'));
  });

  it('refuses an ambiguous key only when a signature uses it', () => {
    expect(() => openNote(v.text + '\n' + v.enochSig, [enoch, peter, enoch])).toThrow(new NoteError('ambiguous key EnochRoot+af0cfe78'));
    expect(openNote(v.text + '\n' + v.peterSig, [enoch, peter, enoch]).verifiedBy).toEqual(['PeterNeumann']);
  });

  it('refuses more than 100 signatures and a bad signature by a known key', () => {
    expect(() => openNote(v.text + '\n' + v.peterSig.repeat(101), [peter])).toThrow(new NoteError('malformed note'));
    expect(() => openNote(v.invalidSignature, [peter])).toThrow(new NoteError('invalid signature for key PeterNeumann+c74f20a3'));
  });

  it('drops repeated signatures', () => {
    expect(openNote(v.text + '\n' + v.peterSig + v.peterSig + v.enochSig + v.enochSig, [peter]).verifiedBy).toEqual(['PeterNeumann']);
  });

  it.each(v.badMessages.map((message, i) => [i, message] as const))('refuses malformed message %i', (_, message) => {
    expect(() => openNote(message, [peter])).toThrow(new NoteError('malformed note'));
  });

  it('refuses invalid UTF-8 (Go: "\\xff" + text)', () => {
    const bytes = Buffer.concat([Buffer.from([0xff]), Buffer.from(v.text + '\n' + v.peterSig)]);
    expect(() => openNote(bytes, [peter])).toThrow(new NoteError('malformed note'));
  });

  it('rejects a signature by a renamed or re-hashed key as unknown', () => {
    expect(() => openNote(v.text + '\n' + v.peterSig.replace('PeterNeumann', 'CarmenSandiego'), [peter])).toThrow(
      'note has no verifiable signatures',
    );
    expect(() => openNote(v.text + '\n' + v.peterSig.replace('x08g', 'xxxx'), [peter])).toThrow('note has no verifiable signatures');
  });
});
