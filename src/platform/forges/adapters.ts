import type { ForgeType } from '../../lib/forge/types';
import type { WebhookEnvelope, WebhookHeaders } from './webhook.types';
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

/**
 * Gitea sends GitHub's headers too, and Forgejo Gitea's: the most specific family is asked first
 * (docs/decisions.md#release-webhooks-are-verified-per-plugin-and-queued-durably).
 */
const WEBHOOK_DETECTION_ORDER: readonly ForgeAdapter[] = [forgejoAdapter, giteaAdapter, gitlabAdapter, githubAdapter];

/** The forge family whose webhook headers these are, with its event name and delivery id; null when none. */
export function detectWebhookForge(headers: WebhookHeaders): { adapter: ForgeAdapter; envelope: WebhookEnvelope } | null {
  for (const adapter of WEBHOOK_DETECTION_ORDER) {
    const envelope = adapter.webhookEnvelope(headers);
    if (envelope) return { adapter, envelope };
  }
  return null;
}
