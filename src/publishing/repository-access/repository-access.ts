import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, forbidden } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { forgeAdapter } from '../../platform/forges/adapters';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { readRepositoryDocument } from '../../platform/forges/repository-document';
import { AssetFetchError } from '../../common/fetch';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';
import { forgeForUrl, type ForgeLocation } from '../../platform/forges/urls';
import { SettingsService } from '../../platform/settings/settings.service';
import { openProviderToken } from '../../platform/users/provider-token';
import { UsersRepository } from '../../platform/users/users.repository';

/** HTTP statuses with which a forge says "this account cannot see that repository". */
const NOT_VISIBLE = new Set([401, 403, 404]);

/** A claim's proof: whether it is verified, and the repository record the proof read (null when none was read). */
export interface ClaimProof {
  verified: boolean;
  repository: unknown;
}

/**
 * Proof of repository control at claim (beyond the spec). Without it, anyone with a `publish:*`
 * token could claim any unclaimed repository and lock its real owner out with 409s. When the
 * repository is on a forge instance users can sign in with, the claimer's own identity on that
 * instance must administer (or maintain) the repository, as the forge's API says when asked with
 * the claimer's stored access token. Repositories elsewhere (another host, or an instance without
 * sign-in, where nobody could prove anything) can still be claimed and show `repoVerified: false`.
 */
@Injectable()
export class RepositoryAccess {
  private readonly logger = new Logger('RepositoryAccess');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
    private readonly policy: FetchPolicy,
  ) {}

  /** Whether the claim is verified; throws 403 (with what to do) when proof is required and missing. */
  async verifyClaim(userId: string, repoUrl: string): Promise<boolean> {
    return (await this.proveClaim(userId, repoUrl)).verified;
  }

  /** verifyClaim, with the repository record the proof read (as the claimer's own forge identity sees it). */
  async proveClaim(userId: string, repoUrl: string): Promise<ClaimProof> {
    const located = forgeForUrl(repoUrl, this.forges.signInCapable());
    if (!located) return { verified: false, repository: null };
    if ((await this.settings.get('publish.claim_requires_repo_access')) === 0) return { verified: false, repository: null };
    return { verified: true, repository: (await this.administered(userId, located)).repository };
  }

  /**
   * Proof of control whether or not the operator requires it for claims: what lets a user take over
   * a repository somebody else registered without proof. Null when the repository is on no instance
   * users sign in with (nobody can prove anything there); 403 or 503 as `administered`.
   */
  async proveControl(userId: string, repoUrl: string): Promise<{ repository: unknown } | null> {
    const located = forgeForUrl(repoUrl, this.forges.signInCapable());
    return located ? { repository: (await this.administered(userId, located)).repository } : null;
  }

  /**
   * The repository record as the user's own forge identity reads it, with that identity's access
   * token, after checking the user administers it (403 otherwise, with what to do).
   */
  async administered(userId: string, located: ForgeLocation): Promise<{ accessToken: string; repository: unknown }> {
    const { forge, repoPath } = located;
    const credential = await this.users.findProviderCredential(userId);
    if (!credential || credential.instance !== forge.name) {
      throw forbidden(
        `claiming a repository on ${forge.name} needs proof that you administer it: sign in with ${forge.name} (${this.config.baseUrl}/auth/${forge.name}/login), ` +
          `create the publisher token as that account, and push again; or ask a registry admin to claim it for you`,
      );
    }
    const accessToken = openProviderToken(this.config.keyEncryptionKey, credential.instance, credential.providerUserId, credential.sealed);
    const repository = await this.readRepository(located, accessToken);
    if (!forgeAdapter(forge.type).canAdminister(repository)) {
      throw forbidden(`your ${forge.name} account does not administer ${repoPath}: only its admins (or maintainers) can claim it`);
    }
    return { accessToken, repository };
  }

  private async readRepository(location: ForgeLocation, accessToken: string): Promise<unknown> {
    const { forge, repoPath } = location;
    try {
      return await readRepositoryDocument(location, accessToken, this.policy.text());
    } catch (error) {
      if (error instanceof AssetFetchError && error.status !== undefined && NOT_VISIBLE.has(error.status)) {
        throw forbidden(
          `your ${forge.name} account cannot see ${repoPath} (${forge.name} answered ${error.status}); sign in again with ${forge.name} if your access changed`,
        );
      }
      const reason = error instanceof AssetFetchError ? error.message : 'its answer was not JSON';
      this.logger.warn(`repository check on ${forge.name} for ${repoPath} failed: ${reason}`);
      throw new DomainError(
        'unavailable',
        'forge-unreachable',
        `${forge.name} could not be asked whether you administer ${repoPath}: ${reason}`,
      );
    }
  }
}
