import { Injectable, Logger } from '@nestjs/common';
import { forgeAdapter } from '../../platform/forges/adapters';
import type { ForgeLocation } from '../../platform/forges/urls';

const TIMEOUT_MS = 10_000;

/**
 * Installs the release webhook on the forge with the user's own token (the forge's own API, of an
 * instance the operator configured). A refusal (no hook scope, not an admin) or an unreachable
 * forge is not an error: the submit answers `webhookInstalled: false` and the secret for manual setup.
 */
@Injectable()
export class HookInstaller {
  private readonly logger = new Logger('Submit');

  async install(location: ForgeLocation, accessToken: string, hookUrl: string, secret: string): Promise<boolean> {
    const adapter = forgeAdapter(location.forge.type);
    const request = adapter.hookInstallRequest(location.forge.apiUrl.replace(/\/+$/, ''), location.repoPath, hookUrl, secret);
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: adapter.authorization(accessToken) },
        body: JSON.stringify(request.body),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.arrayBuffer();
      if (!response.ok) this.logger.warn(`${location.forge.name} refused the hook on ${location.repoPath} (${response.status})`);
      return response.ok;
    } catch (error) {
      this.logger.warn(`${location.forge.name} could not be asked to install the hook on ${location.repoPath}: ${(error as Error).name}`);
      return false;
    }
  }
}
