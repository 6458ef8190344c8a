import type { MigrationInterface } from 'typeorm';
import { Foundation1795256007857 } from './1795256007857-Foundation';
import { Identity1795256490940 } from './1795256490940-Identity';
import { SigningKeys1795256564852 } from './1795256564852-SigningKeys';
import { Catalogue1795256824766 } from './1795256824766-Catalogue';
import { ReleaseRecords1795417760320 } from './1795417760320-ReleaseRecords';
import { OAuthState1795417969395 } from './1795417969395-OAuthState';
import { ReleaseReadmes1795418635895 } from './1795418635895-ReleaseReadmes';
import { SigningKeyDrain1795421375111 } from './1795421375111-SigningKeyDrain';
import { CmsAndWishlist1795421493041 } from './1795421493041-CmsAndWishlist';
import { SettingsVersion1795421652956 } from './1795421652956-SettingsVersion';
import { TrigramSearch1795424142807 } from './1795424142807-TrigramSearch';
import { CatalogueIndexes1795429583227 } from './1795429583227-CatalogueIndexes';
import { Webhooks1795429679803 } from './1795429679803-Webhooks';
import { RegistryIdentity1795429990305 } from './1795429990305-RegistryIdentity';
import { TrustedPublishing1795431263162 } from './1795431263162-TrustedPublishing';
import { TrustedTokens1795431465974 } from './1795431465974-TrustedTokens';
import { PublishedBy1795431836731 } from './1795431836731-PublishedBy';
import { PluginCount1795433700057 } from './1795433700057-PluginCount';
import { ReleaseSigningKidIndex1795437252267 } from './1795437252267-ReleaseSigningKidIndex';
import { DeliveryCreatedIndex1795444460791 } from './1795444460791-DeliveryCreatedIndex';
import { PendingPublisherStatus1795613996093 } from './1795613996093-PendingPublisherStatus';
import { WebhookDeliveryPayloadUnique1795614549782 } from './1795614549782-WebhookDeliveryPayloadUnique';
import { SeveralDrainingKeys1795446120000 } from './1795446120000-SeveralDrainingKeys';
import { ReleaseCatalogueExtensions1795614332816 } from './1795614332816-ReleaseCatalogueExtensions';
import { ReadmeRenderVersion1795615024073 } from './1795615024073-ReadmeRenderVersion';
import { CatalogueChanges1795616840574 } from './1795616840574-CatalogueChanges';
import { CatalogueChangeItemColumns1795636584326 } from './1795636584326-CatalogueChangeItemColumns';
import { PluginPages1795804376028 } from './1795804376028-PluginPages';
import { DownloadDays1795810893219 } from './1795810893219-DownloadDays';
import { ForgeInstances1795811004571 } from './1795811004571-ForgeInstances';
import { CatalogueChangeDownloads1795781000000 } from './1795781000000-CatalogueChangeDownloads';
import { LocalSignIn1795810868882 } from './1795810868882-LocalSignIn';
import { ReleasePictures1795811049165 } from './1795811049165-ReleasePictures';
import { ForgeNameHistory1795814841798 } from './1795814841798-ForgeNameHistory';
import { ImageProxyFailures1795814909081 } from './1795814909081-ImageProxyFailures';
import { PluginDeprecation1795822069336 } from './1795822069336-PluginDeprecation';
import { ChangesFeed1795822073138 } from './1795822073138-ChangesFeed';
import { Subscriptions1795822115151 } from './1795822115151-Subscriptions';
import { FeedIndexes1795822368139 } from './1795822368139-FeedIndexes';
import { DeprecationReplacementKey1795827107966 } from './1795827107966-DeprecationReplacementKey';
import { MirrorMode1795827266136 } from './1795827266136-MirrorMode';
import { SubscriptionFanOutSafe1795827323592 } from './1795827323592-SubscriptionFanOutSafe';
import { FeedYankIndexes1795827904333 } from './1795827904333-FeedYankIndexes';
import { ChangesFeedClockTime1795831000000 } from './1795831000000-ChangesFeedClockTime';
import { KindBumpsSettingsVersion1795830000000 } from './1795830000000-KindBumpsSettingsVersion';
import { TransparencyLog1795834851567 } from './1795834851567-TransparencyLog';
import { FreshnessStatements1795835019119 } from './1795835019119-FreshnessStatements';
import { SubscriptionClaimAndStreak1795835105924 } from './1795835105924-SubscriptionClaimAndStreak';
import { ReleaseProvenance1795835184351 } from './1795835184351-ReleaseProvenance';
import { SubscriptionParkingAndLeaseOwner1795837907966 } from './1795837907966-SubscriptionParkingAndLeaseOwner';
import { FreshnessFromPluginLogSize1795846411031 } from './1795846411031-FreshnessFromPluginLogSize';
import { SessionStepUp1796622643681 } from './1796622643681-SessionStepUp';
import { SubscriptionAnswersNotKept1796622684557 } from './1796622684557-SubscriptionAnswersNotKept';
import { ImagePending1796649000000 } from './1796649000000-ImagePending';
import { ChangesFeedStoredJson1796700000000 } from './1796700000000-ChangesFeedStoredJson';

/** Every migration in order; committed files, never generated at run time. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  Foundation1795256007857,
  Identity1795256490940,
  SigningKeys1795256564852,
  Catalogue1795256824766,
  ReleaseRecords1795417760320,
  OAuthState1795417969395,
  ReleaseReadmes1795418635895,
  SigningKeyDrain1795421375111,
  CmsAndWishlist1795421493041,
  SettingsVersion1795421652956,
  TrigramSearch1795424142807,
  CatalogueIndexes1795429583227,
  Webhooks1795429679803,
  RegistryIdentity1795429990305,
  TrustedPublishing1795431263162,
  TrustedTokens1795431465974,
  PublishedBy1795431836731,
  PluginCount1795433700057,
  ReleaseSigningKidIndex1795437252267,
  DeliveryCreatedIndex1795444460791,
  SeveralDrainingKeys1795446120000,
  PendingPublisherStatus1795613996093,
  ReleaseCatalogueExtensions1795614332816,
  WebhookDeliveryPayloadUnique1795614549782,
  ReadmeRenderVersion1795615024073,
  CatalogueChanges1795616840574,
  CatalogueChangeItemColumns1795636584326,
  CatalogueChangeDownloads1795781000000,
  PluginPages1795804376028,
  LocalSignIn1795810868882,
  DownloadDays1795810893219,
  ForgeInstances1795811004571,
  ReleasePictures1795811049165,
  ForgeNameHistory1795814841798,
  ImageProxyFailures1795814909081,
  PluginDeprecation1795822069336,
  ChangesFeed1795822073138,
  Subscriptions1795822115151,
  FeedIndexes1795822368139,
  DeprecationReplacementKey1795827107966,
  MirrorMode1795827266136,
  SubscriptionFanOutSafe1795827323592,
  FeedYankIndexes1795827904333,
  KindBumpsSettingsVersion1795830000000,
  ChangesFeedClockTime1795831000000,
  TransparencyLog1795834851567,
  FreshnessStatements1795835019119,
  SubscriptionClaimAndStreak1795835105924,
  ReleaseProvenance1795835184351,
  SubscriptionParkingAndLeaseOwner1795837907966,
  FreshnessFromPluginLogSize1795846411031,
  SessionStepUp1796622643681,
  SubscriptionAnswersNotKept1796622684557,
  ImagePending1796649000000,
  ChangesFeedStoredJson1796700000000,
];
