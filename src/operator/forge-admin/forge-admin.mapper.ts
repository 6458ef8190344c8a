import { callbackUrl } from '../../platform/auth/providers.mapper';
import type { LiveForge } from '../../platform/forges/forge-registry';
import type { ForgeInstanceDto } from './dto/forge-instance.dto';

/** Only the public face of an instance and where it comes from: no client id, secret or token. */
export function toForgeInstanceDto(entry: LiveForge, baseUrl: string): ForgeInstanceDto {
  const { forge } = entry;
  return {
    name: forge.name,
    type: forge.type,
    webUrl: forge.webUrl,
    apiUrl: forge.apiUrl,
    source: entry.source,
    signIn: Boolean(forge.clientId && forge.clientSecret),
    callbackUrl: callbackUrl(baseUrl, forge.name),
    createdAt: entry.createdAt ? entry.createdAt.getTime() : null,
  };
}
