import { generateKeyPairSync } from 'node:crypto';
import {
  FRESHNESS_REISSUE_MAX_SECONDS,
  freshnessPeriod,
  freshnessReissueSeconds,
  type FreshnessStatement,
  signFreshnessStatement,
  statementReuseUntilMs,
} from './statement';

const at = (iso: string) => Date.parse(iso);

describe('freshness reissue periods', () => {
  it('issues at most hourly, at most at half the lifetime, at least every second', () => {
    expect(freshnessReissueSeconds(86_400)).toBe(FRESHNESS_REISSUE_MAX_SECONDS);
    expect(freshnessReissueSeconds(7_200)).toBe(3_600);
    expect(freshnessReissueSeconds(3_600)).toBe(1_800);
    expect(freshnessReissueSeconds(61)).toBe(30);
    expect(freshnessReissueSeconds(1)).toBe(1);
  });

  it('issues every statement of a period at its start and expires it a lifetime later', () => {
    const day = 86_400;
    for (const now of ['2026-11-28T10:00:00Z', '2026-11-28T10:17:42.5Z', '2026-11-28T10:59:59.999Z']) {
      expect(freshnessPeriod(at(now), day)).toEqual({ issuedAt: '2026-11-28T10:00:00Z', expiresAt: '2026-11-29T10:00:00Z' });
    }
    expect(freshnessPeriod(at('2026-11-28T11:00:00Z'), day).issuedAt).toBe('2026-11-28T11:00:00Z');
    expect(freshnessPeriod(at('2026-11-28T10:44:00Z'), 3_600)).toEqual({
      issuedAt: '2026-11-28T10:30:00Z',
      expiresAt: '2026-11-28T11:30:00Z',
    });
  });

  it('never moves the issue time back when the lifetime is raised (from an hour to 30 days)', () => {
    const now = at('2026-11-28T10:44:00Z');
    const issued = [7_200, 86_400, 30 * 86_400].map((lifetime) => freshnessPeriod(now, lifetime).issuedAt);
    expect(new Set(issued)).toEqual(new Set(['2026-11-28T10:00:00Z']));
  });

  it('lets a cache replay a statement until the end of its period, not to half its lifetime', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const statement = (issued_at: string, expires_at: string): FreshnessStatement => ({
      slug: 'demo',
      version: '1.0.0',
      platform: 'all',
      asset_sha256: null,
      issued_at,
      expires_at,
      tree_size: 3,
    });
    const day = signFreshnessStatement(statement('2026-11-28T10:00:00Z', '2026-11-29T10:00:00Z'), privateKey, 'k');
    expect(statementReuseUntilMs(day)).toBe(at('2026-11-28T11:00:00Z'));
    const hour = signFreshnessStatement(statement('2026-11-28T10:30:00Z', '2026-11-28T11:30:00Z'), privateKey, 'k');
    expect(statementReuseUntilMs(hour)).toBe(at('2026-11-28T11:00:00Z'));
    expect(statementReuseUntilMs('not.a.statement')).toBeNull();
  });

  it('signs the same bytes for the same statement (Ed25519 is deterministic), so instances agree', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const period = freshnessPeriod(at('2026-11-28T10:17:00Z'), 86_400);
    const make = (): FreshnessStatement => ({
      slug: 'demo',
      version: '1.0.0',
      platform: { os: 'linux', arch: 'x64' },
      asset_sha256: 'a'.repeat(64),
      issued_at: period.issuedAt,
      expires_at: period.expiresAt,
      tree_size: 9,
    });
    expect(signFreshnessStatement(make(), privateKey, 'k')).toBe(signFreshnessStatement(make(), privateKey, 'k'));
  });
});
