import type { CliIo } from '../command';
import { runYank } from '../release-yank';

export const summary = 'restore a yanked release (REGISTRY_TOKEN with yank:<slug>)';

export function run(args: string[], io: CliIo): Promise<number> {
  return runYank('unyank', args, io);
}
