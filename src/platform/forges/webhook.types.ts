/** Request headers with lowercased names, as Node gives them. */
export type WebhookHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A release asset as a forge lists it: its file name and where to download it. */
export interface ReleaseAssetRef {
  name: string;
  url: string;
}

/** What a verified delivery asks the registry to do, in one shape for every forge. */
export type WebhookEvent =
  | { kind: 'ping' }
  | { kind: 'ignored'; why: string }
  /** `assets` null: the payload does not list them (a tag event); read the release by tag. */
  | { kind: 'release'; tag: string; assets: ReleaseAssetRef[] | null };

/** The forge's own name for the event, and its delivery id (null when it sends none). */
export interface WebhookEnvelope {
  event: string;
  deliveryId: string | null;
}

/** A release read through a forge's API. */
export interface ForgeRelease {
  tag: string;
  assets: ReleaseAssetRef[];
  /** Drafts are not published releases and are never ingested. */
  draft: boolean;
}

/** The API call that installs the registry's release webhook on a repository. */
export interface HookInstallRequest {
  url: string;
  body: Record<string, unknown>;
}
