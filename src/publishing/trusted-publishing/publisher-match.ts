import type { CiIdentity } from '../../platform/forges/forge-adapter';

/** What a trusted or pending publisher requires of a CI job. */
export interface PublisherRequirements {
  repositoryId: string;
  repositoryPath: string;
  workflow: string | null;
  refPattern: string | null;
  environment: string | null;
}

/** A ref pattern: `*` matches any run of characters (slashes too), everything else itself. */
export function refMatches(pattern: string, ref: string | null): boolean {
  if (ref === null) return false;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(ref);
}

/**
 * Whether the CI job is the one the publisher names: the same repository by immutable id AND by
 * path (a re-created repository keeps the path but not the id; a renamed one keeps the id), and
 * every narrowing claim that is set. Paths and environments compare case-insensitively, as the
 * forges treat them; workflow paths exactly.
 */
export function matchesIdentity(requirements: PublisherRequirements, identity: CiIdentity): boolean {
  if (requirements.repositoryId !== identity.repositoryId) return false;
  if (requirements.repositoryPath.toLowerCase() !== identity.repository.toLowerCase()) return false;
  if (requirements.workflow !== null && requirements.workflow !== identity.workflow) return false;
  if (requirements.refPattern !== null && !refMatches(requirements.refPattern, identity.ref)) return false;
  if (requirements.environment !== null && requirements.environment.toLowerCase() !== identity.environment?.toLowerCase()) return false;
  return true;
}
