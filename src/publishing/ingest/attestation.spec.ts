import { attestationProblems, MAX_ATTESTATION_BYTES } from './attestation';

describe('attestationProblems', () => {
  it('accepts nothing, and an ordinary bundle', () => {
    expect(attestationProblems(null)).toEqual([]);
    expect(
      attestationProblems({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json', verificationMaterial: { x: [1, 2] } }),
    ).toEqual([]);
  });

  it('refuses a bundle nested deeper than 32 levels, without recursing into it', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(attestationProblems(deep)).toEqual([{ path: '/attestation', message: 'attestation: must nest at most 32 levels deep' }]);
    let ok: unknown = 'leaf';
    for (let i = 0; i < 32; i++) ok = [ok];
    expect(attestationProblems(ok)).toEqual([]);
  });

  it('refuses a bundle over 64 KiB as JSON', () => {
    const problems = attestationProblems({ blob: 'x'.repeat(MAX_ATTESTATION_BYTES) });
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/^attestation: must be at most 65536 bytes as JSON \(got \d+\)$/);
  });

  it('names every field holding NUL', () => {
    expect(attestationProblems({ a: 'x\u0000', b: ['\u0000'] }).map((p) => p.path)).toEqual(['/attestation/a', '/attestation/b/0']);
  });

  it('names a value that has no canonical JSON form', () => {
    expect(attestationProblems({ n: 2 ** 60 })).toEqual([
      {
        path: '/attestation/n',
        message: 'attestation/n: cannot be written as canonical JSON: integer 1152921504606847000 exceeds the I-JSON safe range ±(2^53-1)',
      },
    ]);
  });
});
