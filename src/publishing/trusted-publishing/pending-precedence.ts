import { Injectable } from '@nestjs/common';
import { conflict, DomainError } from '../../common/errors/domain-error';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { RepositoryAccess } from '../repository-access/repository-access';
import type { PendingPublisherEntity } from './entities/pending-publisher.entity';
import { PendingPublishersRepository } from './pending-publishers.repository';
import type { ResolvedIdentity } from './publisher-identity';

export const pendingExists = (detail = 'a pending publisher already holds this slug or this repository') =>
  conflict('pending-publisher-exists', detail);

/** What a new registration does about the active entries holding its slug and its repository. */
export interface Precedence {
  /** Whether the registrant proved control of the repository (now, or by the claim's proof). */
  verified: boolean;
  /** Another user's entry, made without proof, that this registration takes the repository from. */
  displace: PendingPublisherEntity | null;
}

/**
 * One active pending publisher per slug and per repository, and the repository owner first: a
 * registration with proof of control (the claim's proof, RepositoryAccess) takes the repository
 * from another user's entry made without it, which is displaced (kept, with why, for its user).
 * An entry made with proof is never displaced: two admins of one repository, the first one holds it.
 */
@Injectable()
export class PendingPrecedence {
  constructor(
    private readonly pending: PendingPublishersRepository,
    private readonly repositoryAccess: RepositoryAccess,
    private readonly forges: ForgeRegistry,
  ) {}

  async settle(userId: string, slug: string, identity: ResolvedIdentity, verified: boolean): Promise<Precedence> {
    const path = identity.repositoryPath;
    const holders = await this.pending.holders(slug, identity.forge.name, identity.repositoryId);
    const holder = holders.repository;
    if (holders.slug && holders.slug.id !== holder?.id) throw pendingExists(`a pending publisher already holds the slug "${slug}"`);
    if (!holder) return { verified, displace: null };
    if (holder.userId === userId) throw pendingExists(`your pending publisher for "${holder.slug}" already names ${path}: remove it first`);
    if (holder.repoVerified)
      throw pendingExists(`another user who proved that they administer ${path} registered a pending publisher for it first`);
    if (verified || (await this.provesControl(userId, identity))) return { verified: true, displace: holder };
    const signIn = this.forges.signInCapable().some((forge) => forge.name === identity.forge.name);
    throw pendingExists(
      signIn
        ? `another user's pending publisher holds ${path}, registered without proof of control: prove that you administer it (sign in with ${identity.forge.name} as one of its admins) and register again to take it over`
        : `another user's pending publisher holds ${path}; nobody can prove control of a repository on ${identity.forge.name} (no sign-in there), so the first registration holds it`,
    );
  }

  /** What the displaced entry's user reads. */
  reason(identity: ResolvedIdentity, displaced: PendingPublisherEntity): string {
    return (
      `a user who proved that they administer ${identity.repositoryPath} on ${identity.forge.name} registered a pending publisher for it: ` +
      `the repository owner's registration comes first, so this entry no longer claims "${displaced.slug}". Remove it.`
    );
  }

  /** Proof whatever the claim setting says; a registrant who cannot give it is not an error here, only not the owner. */
  private async provesControl(userId: string, identity: ResolvedIdentity): Promise<boolean> {
    try {
      return (await this.repositoryAccess.proveControl(userId, identity.repoUrl)) !== null;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden') return false;
      throw error;
    }
  }
}
