import type { MirrorFailureEntity } from './entities/mirror-failure.entity';
import type { MirrorStateEntity } from './entities/mirror-state.entity';

export interface MirrorStatus {
  upstream: string | null;
  /** This instance is the one following upstream now (see MirrorService.poll). */
  following: boolean;
  state: MirrorStateEntity | null;
  failures: MirrorFailureEntity[];
  failureCount: number;
}
