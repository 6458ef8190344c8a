import { Injectable } from '@nestjs/common';
import { badRequest, upstreamFailed } from '../common/errors/domain-error';
import { forgeAdapter } from '../forges/adapters';
import { ForgeRegistry } from '../forges/forge-registry';
import { readRepositoryDocument } from '../forges/repository-document';
import { AssetFetchError } from '../ingest/fetch';
import { FetchPolicy } from '../ingest/fetch-policy';
import { checkRepoPath, parseRepoUrl } from '../lib/forge';
import type { ForgeInstanceConfig } from '../lib/forge/types';
import type { PublisherIdentityDto } from './dto/trusted-publisher.dto';

/** A CI identity as registered: checked, with its repository id and claim anchor. */
export interface ResolvedIdentity {
  forge: ForgeInstanceConfig;
  repositoryPath: string;
  repositoryId: string;
  workflow: string | null;
  refPattern: string | null;
  environment: string | null;
  repoUrl: string;
  repoIdentity: string;
}

const fieldError = (path: string, message: string) => badRequest('validation-failed', message, [{ path: `/${path}`, message: `${path}: ${message}` }]);

/**
 * Checks what a trusted or pending publisher names against the configured instances, and reads the
 * repository's immutable id from the forge when it was not given (under the fetch policy, with
 * the instance's own token when it has one).
 */
@Injectable()
export class PublisherIdentities {
  constructor(
    private readonly forges: ForgeRegistry,
    private readonly policy: FetchPolicy,
  ) {}

  async resolve(input: PublisherIdentityDto): Promise<ResolvedIdentity> {
    const forge = this.forges.byName(input.forge);
    if (!forge) throw fieldError('forge', `no forge instance "${input.forge}" is configured`);
    if (!forge.oidcIssuer) throw fieldError('forge', `the instance "${forge.name}" has no oidcIssuer: its CI cannot publish without a token here`);
    const path = checkRepoPath(forge.type, input.repository.replace(/^\/+|\/+$/g, ''));
    if (!path.ok) throw fieldError('repository', path.message);
    const repoUrl = `${forge.webUrl}/${path.value}`;
    const parsed = parseRepoUrl(repoUrl, { forges: this.forges.all() });
    if (!parsed.ok) throw fieldError('repository', parsed.message);
    return {
      forge,
      repositoryPath: path.value,
      repositoryId: input.repositoryId ?? (await this.readRepositoryId(forge, path.value)),
      workflow: input.workflow ?? null,
      refPattern: input.ref ?? null,
      environment: input.environment ?? null,
      repoUrl: parsed.url.toString(),
      repoIdentity: parsed.identity,
    };
  }

  private async readRepositoryId(forge: ForgeInstanceConfig, repoPath: string): Promise<string> {
    let reason: string;
    try {
      const id = forgeAdapter(forge.type).repositoryId(await readRepositoryDocument({ forge, repoPath }, forge.token, this.policy.text()));
      if (id) return id;
      reason = 'its answer has no repository id';
    } catch (error) {
      reason = error instanceof AssetFetchError ? error.message : 'its answer was not JSON';
    }
    throw upstreamFailed('forge-fetch-failed', `the repository id of ${repoPath} could not be read from ${forge.name} (${reason}); give repositoryId`);
  }
}
