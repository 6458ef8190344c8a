import type { CliIo } from '../command';
import { runYank } from '../release-yank';

export const summary = 'yank a release so `latest` passes over it (REGISTRY_TOKEN with yank:<slug>)';

export function run(args: string[], io: CliIo): Promise<number> {
  return runYank('yank', args, io);
}
