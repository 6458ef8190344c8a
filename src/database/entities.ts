import { AuditEntryEntity } from '../audit/entities/audit-entry.entity';
import { ReleaseResignFailureEntity } from '../integrity/entities/release-resign-failure.entity';
import { SigningKeyEntity } from '../integrity/entities/signing-key.entity';
import { OAuthStateEntity } from '../auth/entities/oauth-state.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { BrandingEntity } from '../cms/entities/branding.entity';
import { FeatureFlagEntity } from '../cms/entities/feature-flag.entity';
import { PageEntity } from '../cms/entities/page.entity';
import { SiteLanguagesEntity } from '../cms/entities/site-languages.entity';
import { KindEntity } from '../kinds/entities/kind.entity';
import { PluginOwnerEntity } from '../plugins/entities/plugin-owner.entity';
import { PluginEntity } from '../plugins/entities/plugin.entity';
import { ReleaseReadmeEntity } from '../plugins/entities/release-readme.entity';
import { ReleaseEntity } from '../plugins/entities/release.entity';
import { PluginRequestVoteEntity } from '../requests/entities/plugin-request-vote.entity';
import { PluginRequestEntity } from '../requests/entities/plugin-request.entity';
import { AppSettingEntity } from '../settings/entities/app-setting.entity';
import { SettingsVersionEntity } from '../settings/entities/settings-version.entity';
import { PublisherTokenEntity } from '../tokens/entities/publisher-token.entity';
import { UserEntity } from '../users/entities/user.entity';
import { PluginCountEntity } from '../plugins/entities/plugin-count.entity';
import { CatalogueChangeEntity } from '../plugins/entities/catalogue-change.entity';
import { PluginPageEntity } from '../plugins/entities/plugin-page.entity';
import { PluginPageStaleEntity } from '../plugins/entities/plugin-page-stale.entity';
import { RegistryIdentityEntity } from '../common/redis/entities/registry-identity.entity';
import { PluginWebhookEntity } from '../webhooks/entities/plugin-webhook.entity';
import { WebhookDeliveryEntity } from '../webhooks/entities/webhook-delivery.entity';
import { PendingPublisherEntity } from '../trusted-publishing/entities/pending-publisher.entity';
import { TrustedPublisherEntity } from '../trusted-publishing/entities/trusted-publisher.entity';
import { UsedOidcTokenEntity } from '../trusted-publishing/entities/used-oidc-token.entity';

/** Every entity, listed explicitly so the compiled server and the TS tests load the same set. */
export const ENTITIES = [
  AppSettingEntity,
  SettingsVersionEntity,
  AuditEntryEntity,
  UserEntity,
  SessionEntity,
  OAuthStateEntity,
  PublisherTokenEntity,
  SigningKeyEntity,
  ReleaseResignFailureEntity,
  KindEntity,
  PluginEntity,
  CatalogueChangeEntity,
  PluginPageEntity,
  PluginPageStaleEntity,
  PluginOwnerEntity,
  ReleaseEntity,
  ReleaseReadmeEntity,
  PageEntity,
  BrandingEntity,
  SiteLanguagesEntity,
  FeatureFlagEntity,
  PluginRequestEntity,
  PluginRequestVoteEntity,
  RegistryIdentityEntity,
  PluginCountEntity,
  PluginWebhookEntity,
  WebhookDeliveryEntity,
  TrustedPublisherEntity,
  PendingPublisherEntity,
  UsedOidcTokenEntity,
];
