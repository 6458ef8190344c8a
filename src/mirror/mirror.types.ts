import type { MirrorFailureEntity } from './entities/mirror-failure.entity';
import type { MirrorStateEntity } from './entities/mirror-state.entity';

export interface MirrorStatus {
  upstream: string | null;
  state: MirrorStateEntity | null;
  failures: MirrorFailureEntity[];
  failureCount: number;
}
