import type { ForgeType } from '../lib/forge/types';
import type { ForgeAdapter } from './forge-adapter';
import { forgejoAdapter, giteaAdapter } from './gitea';
import { githubAdapter } from './github';
import { gitlabAdapter } from './gitlab';

const ADAPTERS: Readonly<Record<ForgeType, ForgeAdapter>> = {
  github: githubAdapter,
  gitlab: gitlabAdapter,
  gitea: giteaAdapter,
  forgejo: forgejoAdapter,
};

/** The adapter for a forge family. */
export function forgeAdapter(type: ForgeType): ForgeAdapter {
  return ADAPTERS[type];
}
