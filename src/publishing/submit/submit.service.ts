import { Inject, Injectable } from '@nestjs/common';
import type { AuditActor } from '../../platform/audit/audit.service';
import type { AuthContext } from '../../platform/auth/auth-context';
import { RandomSource } from '../../common/clock';
import { badRequest, invalid, upstreamFailed } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { textAt } from '../../platform/forges/forge-adapter';
import { forgeAdapter } from '../../platform/forges/adapters';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { AssetFetchError, fetchText } from '../../common/fetch';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';
import { PluginClaims } from '../ingest/plugin-claims';
import { KindsService } from '../../catalogue/kinds/kinds.service';
import { fileContentsApiRequest, forgeForUrl, type ForgeLocation, parseRepoUrl } from '../../platform/forges/urls';
import { checkManifest, MANIFEST_FILE_NAMES } from '../../lib/manifest';
import { RepositoryAccess } from '../repository-access/repository-access';
import { webhookUrl } from '../webhooks/deliveries.service';
import { PluginWebhooksRepository } from '../webhooks/plugin-webhooks.repository';
import { generateWebhookSecret, sealWebhookSecret } from '../webhooks/webhook-secret';
import type { SubmitDto, SubmitResultDto } from './dto/submit.dto';
import { HookInstaller } from './hook-installer';

const repoUrlError = (message: string) => badRequest('validation-failed', message, [{ path: '/repoUrl', message: `repoUrl: ${message}` }]);

/**
 * Submitting a plugin through a linked forge identity: proof of administration, the manifest on
 * the default branch, the claim (the push's rules), a fresh webhook secret and, when the forge
 * lets the user's token, the installed hook.
 */
@Injectable()
export class SubmitService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly access: RepositoryAccess,
    private readonly policy: FetchPolicy,
    private readonly kinds: KindsService,
    private readonly claims: PluginClaims,
    private readonly webhooks: PluginWebhooksRepository,
    private readonly installer: HookInstaller,
    private readonly random: RandomSource,
  ) {}

  async submit(auth: AuthContext, body: SubmitDto, ip: string | null): Promise<SubmitResultDto> {
    const repo = parseRepoUrl(body.repoUrl, { forges: this.forges.all() });
    if (!repo.ok) throw repoUrlError(repo.message);
    const located = forgeForUrl(repo.url, this.forges.signInCapable());
    if (!located) throw repoUrlError('is not on a forge this registry can sign you in with');
    const { accessToken, repository } = await this.access.administered(auth.user.id, located);
    const ref = textAt(repository, 'default_branch') ?? 'HEAD';
    const manifest = await this.readManifest(located, accessToken, ref);
    const checked = checkManifest(manifest.text, manifest.fileName, await this.kinds.validationContext());
    if (!checked.ok)
      throw invalid(
        'manifest-invalid',
        `the manifest ${manifest.fileName} on ${ref} has ${checked.violations.length} violation(s)`,
        checked.violations,
      );

    const slug = checked.manifest.name;
    const actor: AuditActor = { userId: auth.user.id, ip };
    const claim = { repoUrl: repo.url.toString(), repoIdentity: repo.identity, repoVerified: true, ownerId: auth.user.id };
    const { plugin } = await this.claims.claimWithoutRelease(slug, checked.manifest.name, claim, actor);
    const secret = generateWebhookSecret(this.random);
    await this.webhooks.upsert(plugin.id, sealWebhookSecret(this.config.keyEncryptionKey, plugin.id, secret), false);
    const url = webhookUrl(this.config.baseUrl);
    const installed = await this.installer.install(located, accessToken, url, secret);
    if (installed) await this.webhooks.setHookInstalled(plugin.id, true);
    return { slug: plugin.slug, webhookUrl: url, webhookSecret: secret, webhookInstalled: installed };
  }

  private async readManifest(location: ForgeLocation, accessToken: string, ref: string): Promise<{ text: string; fileName: string }> {
    const authorization = forgeAdapter(location.forge.type).authorization(accessToken);
    for (const fileName of MANIFEST_FILE_NAMES) {
      const request = fileContentsApiRequest(location.forge, location.repoPath, ref, fileName);
      try {
        const fetched = await fetchText(request.url, {
          ...this.policy.text(),
          headers: { ...request.headers, Authorization: authorization },
        });
        return { text: fetched.text, fileName };
      } catch (error) {
        if (error instanceof AssetFetchError && error.status === 404) continue;
        throw upstreamFailed(
          'forge-fetch-failed',
          error instanceof AssetFetchError ? error.message : `${location.forge.name} could not be read`,
        );
      }
    }
    throw invalid('manifest-invalid', `${location.repoPath} has no manifest (${MANIFEST_FILE_NAMES.join(', ')}) on ${ref}`, [
      { path: '', message: 'no manifest file in the repository' },
    ]);
  }
}
