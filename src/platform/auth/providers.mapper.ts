import type { ForgeInstanceConfig, ForgeType } from '../../lib/forge/types';
import type { ProviderDto } from './dto/provider.dto';

const FAMILY: Record<ForgeType, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea', forgejo: 'Forgejo' };

/** The callback URL an instance registers at its forge (the OAuth service builds the same). */
export function callbackUrl(baseUrl: string, instance: string): string {
  return `${baseUrl}/auth/${instance}/callback`;
}

/** Only the public face of an instance: no client id, client secret or token is ever copied. */
export function toProviderDto(forge: ForgeInstanceConfig, baseUrl: string): ProviderDto {
  const family = FAMILY[forge.type];
  return {
    name: forge.name,
    type: forge.type,
    webUrl: forge.webUrl,
    label: forge.name.toLowerCase() === forge.type ? family : `${family} (${forge.name})`,
    loginUrl: `/auth/${encodeURIComponent(forge.name)}/login`,
    callbackUrl: callbackUrl(baseUrl, forge.name),
  };
}
