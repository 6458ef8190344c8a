import type { MirrorStatusDto } from './dto/mirror-status.dto';
import type { MirrorStatus } from './mirror.types';

export function toMirrorStatusDto(status: MirrorStatus): MirrorStatusDto {
  const state = status.state && status.state.upstream === status.upstream ? status.state : null;
  return {
    mirror: status.upstream !== null,
    upstream: status.upstream,
    following: status.following,
    cursor: state?.cursor ?? null,
    lastPollAt: state?.lastPollAt?.getTime() ?? null,
    lastError: state?.lastError ?? null,
    failureCount: status.failureCount,
    failures: status.failures.map((f) => ({
      slug: f.slug,
      version: f.version,
      code: f.code,
      message: f.message,
      at: f.failedAt.getTime(),
    })),
  };
}
