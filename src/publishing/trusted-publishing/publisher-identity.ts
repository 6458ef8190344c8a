import { Injectable } from '@nestjs/common';
import { badRequest, invalid, upstreamFailed } from '../../common/errors/domain-error';
import { forgeAdapter } from '../../platform/forges/adapters';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { readRepositoryDocument } from '../../platform/forges/repository-document';
import { AssetFetchError } from '../../common/fetch';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';
import { checkRepoPath, parseRepoUrl } from '../../platform/forges/urls';
import type { ForgeInstanceConfig } from '../../lib/forge/types';
import type { PublisherIdentityDto } from './dto/trusted-publisher.dto';

/** A CI identity as the request names it, checked against the configured instances, with its claim anchor. */
export interface CheckedIdentity {
  forge: ForgeInstanceConfig;
  repositoryPath: string;
  workflow: string | null;
  refPattern: string | null;
  environment: string | null;
  repoUrl: string;
  repoIdentity: string;
}

/** A CI identity as registered: checked, with the repository id its forge answers. */
export interface ResolvedIdentity extends CheckedIdentity {
  repositoryId: string;
}

/** Statuses with which a forge says the repository is not there (or not visible to whoever asked). */
const ABSENT = new Set([404, 410]);

const fieldError = (path: string, message: string) =>
  badRequest('validation-failed', message, [{ path: `/${path}`, message: `${path}: ${message}` }]);

/**
 * What a trusted or pending publisher names: checked against the configured instances, and the
 * repository's immutable id read from the forge's REST API, never taken from the client (an id
 * the client chose would let a registration name a repository it does not describe). The record
 * is the one a proof of control already read, else read now under the fetch policy with the
 * instance's own token when it has one.
 */
@Injectable()
export class PublisherIdentities {
  constructor(
    private readonly forges: ForgeRegistry,
    private readonly policy: FetchPolicy,
  ) {}

  check(input: PublisherIdentityDto): CheckedIdentity {
    const forge = this.forges.byName(input.forge);
    if (!forge) throw fieldError('forge', `no forge instance "${input.forge}" is configured`);
    if (!forge.oidcIssuer)
      throw fieldError('forge', `the instance "${forge.name}" has no oidcIssuer: its CI cannot publish without a token here`);
    const path = checkRepoPath(forge.type, input.repository.replace(/^\/+|\/+$/g, ''));
    if (!path.ok) throw fieldError('repository', path.message);
    const parsed = parseRepoUrl(`${forge.webUrl}/${path.value}`, { forges: this.forges.all() });
    if (!parsed.ok) throw fieldError('repository', parsed.message);
    return {
      forge,
      repositoryPath: path.value,
      workflow: input.workflow ?? null,
      refPattern: input.ref ?? null,
      environment: input.environment ?? null,
      repoUrl: parsed.url.toString(),
      repoIdentity: parsed.identity,
    };
  }

  /**
   * The identity with the repository id its forge answers. `claimedId`, when the client sent one,
   * must be that id (422 naming repositoryId otherwise); a repository the forge does not know, or
   * knows under another path now (renamed or moved), is 422 naming repository; a forge that
   * cannot be asked is 502. `record` is the repository record a proof of control read already.
   */
  async resolve(identity: CheckedIdentity, claimedId: string | undefined, record?: unknown): Promise<ResolvedIdentity> {
    const { forge, repositoryPath } = identity;
    const document = record ?? (await this.readRecord(forge, repositoryPath));
    const adapter = forgeAdapter(forge.type);
    const repositoryId = adapter.repositoryId(document);
    if (!repositoryId)
      throw upstreamFailed(
        'forge-fetch-failed',
        `${forge.name}'s record of ${repositoryPath} has no repository id; nothing was registered`,
      );
    const currentPath = adapter.repositoryPath(document);
    if (currentPath !== null && currentPath.toLowerCase() !== repositoryPath.toLowerCase()) {
      const message = `${forge.name} knows this repository as ${currentPath} now (renamed or moved): register ${currentPath}, the path its CI jobs carry`;
      throw invalid('invalid', message, [{ path: '/repository', message: `repository: ${message}` }]);
    }
    if (claimedId !== undefined && claimedId !== repositoryId) {
      const message = `${forge.name} says ${repositoryPath} has the id ${repositoryId}, not ${claimedId}; leave repositoryId out, the registry reads it from ${forge.name}`;
      throw invalid('repository-id-mismatch', message, [{ path: '/repositoryId', message: `repositoryId: ${message}` }]);
    }
    return { ...identity, repositoryId };
  }

  private async readRecord(forge: ForgeInstanceConfig, repoPath: string): Promise<unknown> {
    try {
      return await readRepositoryDocument({ forge, repoPath }, forge.token, this.policy.text());
    } catch (error) {
      if (error instanceof AssetFetchError && error.status !== undefined && ABSENT.has(error.status)) {
        const message = `${forge.name} has no repository ${repoPath}${forge.token ? '' : ' (or it is private, and the instance has no token in FORGES to see it)'}`;
        throw invalid('repository-not-found', message, [{ path: '/repository', message: `repository: ${message}` }]);
      }
      const reason = error instanceof AssetFetchError ? error.message : 'its answer was not JSON';
      throw upstreamFailed(
        'forge-fetch-failed',
        `${forge.name} could not be asked for the repository ${repoPath} (${reason}); nothing was registered, try again later`,
      );
    }
  }
}
