import { FORGE_TYPES, type ForgeInstanceConfig, type ForgeType } from '../lib/forge/types';
import type { AppConfig } from './config.types';
import { text } from './parsers';
import { type ConfigArea, type EnvironmentReader, Invalid, type Parser } from './variable';

/** The CI OIDC issuers of the public instances; a self-hosted instance names its own. */
export const DEFAULT_OIDC_ISSUERS: Readonly<Record<string, string>> = {
  'https://github.com': 'https://token.actions.githubusercontent.com',
  'https://gitlab.com': 'https://gitlab.com',
};

export const DEFAULT_FORGES: readonly ForgeInstanceConfig[] = [
  {
    name: 'github',
    type: 'github',
    webUrl: 'https://github.com',
    apiUrl: 'https://api.github.com',
    oidcIssuer: DEFAULT_OIDC_ISSUERS['https://github.com'],
  },
  {
    name: 'gitlab',
    type: 'gitlab',
    webUrl: 'https://gitlab.com',
    apiUrl: 'https://gitlab.com/api/v4',
    oidcIssuer: DEFAULT_OIDC_ISSUERS['https://gitlab.com'],
  },
  { name: 'codeberg', type: 'gitea', webUrl: 'https://codeberg.org', apiUrl: 'https://codeberg.org/api/v1' },
];

const NAME_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return value.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** Parses FORGES; returns the instances or the list of what is wrong with it. */
export function parseForges(raw: string): { forges: ForgeInstanceConfig[] } | { errors: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { errors: ['must be a JSON array of forge instances'] };
  }
  if (!Array.isArray(parsed)) return { errors: ['must be a JSON array of forge instances'] };
  const errors: string[] = [];
  const forges: ForgeInstanceConfig[] = [];
  const names = new Set<string>();
  const issuers = new Set<string>();
  parsed.forEach((item: Record<string, unknown>, index) => {
    const at = `[${index}]`;
    if (typeof item !== 'object' || item === null) {
      errors.push(`${at} must be an object`);
      return;
    }
    const name = item.name;
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
      errors.push(`${at}.name must match ${NAME_PATTERN}`);
    } else if (names.has(name)) {
      errors.push(`${at}.name "${name}" is used twice`);
    } else {
      names.add(name);
    }
    if (!FORGE_TYPES.includes(item.type as ForgeType)) errors.push(`${at}.type must be one of ${FORGE_TYPES.join(', ')}`);
    const webUrl = httpUrl(item.webUrl);
    const apiUrl = httpUrl(item.apiUrl);
    if (!webUrl) errors.push(`${at}.webUrl must be an http(s) URL`);
    if (!apiUrl) errors.push(`${at}.apiUrl must be an http(s) URL`);
    for (const key of ['clientId', 'clientSecret', 'token'] as const) {
      if (item[key] !== undefined && typeof item[key] !== 'string') errors.push(`${at}.${key} must be a string`);
    }
    // null turns trusted publishing off for an instance whose issuer would otherwise default.
    const oidcIssuer =
      item.oidcIssuer === undefined
        ? webUrl
          ? DEFAULT_OIDC_ISSUERS[webUrl]
          : undefined
        : item.oidcIssuer === null
          ? undefined
          : httpUrl(item.oidcIssuer);
    if (item.oidcIssuer !== undefined && item.oidcIssuer !== null && !oidcIssuer)
      errors.push(`${at}.oidcIssuer must be an http(s) URL or null`);
    if (oidcIssuer && issuers.has(oidcIssuer)) errors.push(`${at}.oidcIssuer "${oidcIssuer}" is used by two instances`);
    if (oidcIssuer) issuers.add(oidcIssuer);
    if ((item.clientId === undefined) !== (item.clientSecret === undefined)) {
      errors.push(`${at} needs both clientId and clientSecret, or neither`);
    }
    if (webUrl && apiUrl && typeof name === 'string') {
      forges.push(
        Object.freeze({
          name,
          type: item.type as ForgeType,
          webUrl,
          apiUrl,
          ...(typeof item.clientId === 'string' ? { clientId: item.clientId } : {}),
          ...(typeof item.clientSecret === 'string' ? { clientSecret: item.clientSecret } : {}),
          ...(typeof item.token === 'string' ? { token: item.token } : {}),
          ...(oidcIssuer ? { oidcIssuer } : {}),
        }),
      );
    }
  });
  return errors.length ? { errors } : { forges };
}

const forges: Parser<readonly ForgeInstanceConfig[]> = {
  type: 'JSON array of forge instances',
  parse(raw) {
    const parsed = parseForges(raw);
    return 'errors' in parsed ? new Invalid(...parsed.errors) : parsed.forges;
  },
};

const FORGES = {
  name: 'FORGES',
  parser: forges,
  unset: DEFAULT_FORGES.map((forge) => new URL(forge.webUrl).host).join(', '),
  description: `Each instance: \`name\`, \`type\` (${FORGE_TYPES.join(', ')}), \`webUrl\`, \`apiUrl\`; optional \`clientId\` and \`clientSecret\` (OAuth sign-in), \`token\` (API reads, private repositories too), \`oidcIssuer\` (trusted publishing; null turns it off). Admins can add more at run time, without a restart (administering.md, Forge instances).`,
};
const OIDC_AUDIENCE = {
  name: 'OIDC_AUDIENCE',
  parser: text({ maxLength: 255 }),
  unset: '`BASE_URL`',
  description: 'The audience (`aud`) a CI OIDC ID token must carry to be exchanged for a short-lived publisher token (trusted publishing).',
};

export const FORGES_AREA: ConfigArea = { title: 'Forges and trusted publishing', variables: [FORGES, OIDC_AUDIENCE] };

export function readForges(reader: EnvironmentReader, baseUrl: string): Pick<AppConfig, 'forges' | 'oidcAudience'> {
  return {
    forges: Object.freeze([...(reader.read(FORGES) ?? DEFAULT_FORGES)]),
    oidcAudience: reader.read(OIDC_AUDIENCE) ?? baseUrl,
  };
}
