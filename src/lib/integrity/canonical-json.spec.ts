import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { canonicalJson, canonicalJsonBytes, CanonicalJsonError, sha256Hex } from './canonical-json';

const VECTORS = join(__dirname, 'testdata', 'jcs');

function fromIeeeHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

function thrown(run: () => unknown): CanonicalJsonError {
  try {
    run();
  } catch (error) {
    if (error instanceof CanonicalJsonError) return error;
    throw error;
  }
  throw new Error('expected a CanonicalJsonError');
}

describe('canonicalJson: published JCS vectors (cyberphone/json-canonicalization testdata)', () => {
  const names = readdirSync(join(VECTORS, 'input'))
    .filter((name) => name.endsWith('.json'))
    .sort();

  it('has all six vector pairs on disk', () => {
    expect(names).toEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']);
  });

  it.each(names)('%s canonicalizes to the exact expected bytes', (name) => {
    const input: unknown = JSON.parse(readFileSync(join(VECTORS, 'input', name), 'utf8'));
    const expected = readFileSync(join(VECTORS, 'output', name));
    const actual = Buffer.from(canonicalJsonBytes(input, { rejectUnsafeIntegers: false }));
    expect(actual.toString('hex')).toBe(expected.toString('hex'));
  });

  it('refuses values.json by default because 1E30 is beyond the I-JSON integer range', () => {
    const input: unknown = JSON.parse(readFileSync(join(VECTORS, 'input', 'values.json'), 'utf8'));
    expect(thrown(() => canonicalJson(input)).pointer).toBe('/numbers/0');
  });
});

describe('canonicalJson: RFC 8785 examples', () => {
  // Section 3.2.2 input; section 3.2.4 gives the UTF-8 bytes of its canonical form.
  const SAMPLE =
    '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n' +
    '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n  "literals": [null, true, false]\n}';
  const SECTION_3_2_4_BYTES = `
    7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72
    75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a
    5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31
    65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37
    5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30
    30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d`;

  it('section 3.2.2 sample yields the section 3.2.4 bytes', () => {
    const bytes = canonicalJsonBytes(JSON.parse(SAMPLE), { rejectUnsafeIntegers: false });
    expect(Buffer.from(bytes).toString('hex')).toBe(SECTION_3_2_4_BYTES.replace(/\s+/g, ''));
    expect(canonicalJson(JSON.parse(SAMPLE), { rejectUnsafeIntegers: false })).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('section 3.2.3 sorts property names by UTF-16 code units', () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",' +
        '"\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    ) as Record<string, string>;
    // Read the order from the text: a parsed object would list the integer-like key "1" first anyway.
    const textOrder = [...canonicalJson(input).matchAll(/":"([^"]+)"/g)].map((match) => match[1]);
    expect(textOrder).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  // Appendix B: IEEE-754 bit patterns and their required serialization.
  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('Appendix B: %s serializes as %s', (hex, expected) => {
    expect(canonicalJson(fromIeeeHex(hex), { rejectUnsafeIntegers: false })).toBe(expected);
  });

  it.each([['7fffffffffffffff'], ['7ff0000000000000'], ['fff0000000000000']])('Appendix B: %s (NaN/Infinity) is an error', (hex) => {
    expect(thrown(() => canonicalJson(fromIeeeHex(hex), { rejectUnsafeIntegers: false })).message).toMatch(/not representable/);
  });
});

describe('canonicalJson: refusals', () => {
  class Point {
    constructor(readonly x: number) {}
  }

  it.each<[string, unknown, string, RegExp]>([
    ['a lone high surrogate in a string', { a: ['\ud800'] }, '/a/0', /lone UTF-16 surrogate/],
    ['a lone low surrogate in a string', { a: 'x\udc00y' }, '/a', /lone UTF-16 surrogate/],
    ['reversed surrogates', ['\udc00\ud800'], '/0', /lone UTF-16 surrogate/],
    ['a lone surrogate in a key', { ok: { 'k\ud83d': 1 } }, '/ok/k\ud83d', /key contains a lone/],
    ['an unsafe positive integer', { n: 2 ** 53 }, '/n', /safe range/],
    ['an unsafe negative integer', { n: -(2 ** 53) }, '/n', /safe range/],
    ['NaN', { n: NaN }, '/n', /not representable/],
    ['Infinity', [Infinity], '/0', /not representable/],
    ['undefined in an object', { u: undefined }, '/u', /undefined is not a JSON value/],
    ['undefined in an array', [1, undefined], '/1', /not a JSON value/],
    ['a hole in a sparse array', [1, , 3], '/1', /not a JSON value/], // eslint-disable-line no-sparse-arrays
    ['a function', { f: () => 1 }, '/f', /function is not a JSON value/],
    ['a symbol', { s: Symbol('s') }, '/s', /symbol is not a JSON value/],
    ['a bigint', { b: 1n }, '/b', /bigint is not a JSON value/],
    ['a Date', { when: new Date(0) }, '/when', /Date is not a plain object/],
    ['a Map', { m: new Map() }, '/m', /Map is not a plain object/],
    ['a class instance', { p: new Point(1) }, '/p', /Point is not a plain object/],
    ['a boxed string', { s: new String('x') }, '/s', /String is not a plain object/],
    ['a symbol-keyed property', { o: { [Symbol('k')]: 1 } }, '/o', /symbol-keyed/],
    ['a key needing pointer escapes', { 'a/b~c': [NaN] }, '/a~1b~0c/0', /not representable/],
  ])('refuses %s, naming its JSON pointer', (_label, value, pointer, reason) => {
    const error = thrown(() => canonicalJson(value));
    expect(error.pointer).toBe(pointer);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain(`'${pointer}'`);
  });

  it('refuses circular structures instead of overflowing the stack', () => {
    const loop: Record<string, unknown> = {};
    loop.self = { back: loop };
    expect(thrown(() => canonicalJson(loop)).pointer).toBe('/self/back');
  });

  it('accepts repeated (non-circular) references and the largest safe integers', () => {
    const shared = { v: 1 };
    expect(canonicalJson({ a: shared, b: shared, max: 2 ** 53 - 1, min: -(2 ** 53 - 1), f: 1.5e-300 })).toBe(
      '{"a":{"v":1},"b":{"v":1},"f":1.5e-300,"max":9007199254740991,"min":-9007199254740991}',
    );
  });

  it('accepts a paired surrogate, a null-prototype object, and escapes C0 controls in lowercase hex', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { z: 1, a: '\u0001\u001f\u007f😀' });
    expect(canonicalJson(bare)).toBe('{"a":"\\u0001\\u001f\u007f😀","z":1}');
  });
});

describe('canonicalJson: properties', () => {
  it('is a fixed point of parse-then-canonicalize and preserves the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value, { rejectUnsafeIntegers: false });
        expect(canonicalJson(JSON.parse(text), { rejectUnsafeIntegers: false })).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('does not depend on the insertion order of keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
    );
  });
});

describe('sha256Hex', () => {
  it('hashes strings as UTF-8 and bytes as given (FIPS 180-2 "abc" vector)', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('abc')).toBe(abc);
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(abc);
    expect(sha256Hex(canonicalJson({}))).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});
