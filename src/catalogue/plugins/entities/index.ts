import { CatalogueChangeEntity } from './catalogue-change.entity';
import { PluginEntity } from './plugin.entity';
import { PluginCountEntity } from './plugin-count.entity';
import { PluginDownloadDayEntity } from './plugin-download-day.entity';
import { PluginOwnerEntity } from './plugin-owner.entity';
import { PluginPageEntity } from './plugin-page.entity';
import { PluginPageChangeEntity } from './plugin-page-change.entity';
import { ReleaseEntity } from './release.entity';
import { ReleaseDownloadDayEntity } from './release-download-day.entity';
import { ReleaseReadmeEntity } from './release-readme.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const PLUGINS_ENTITIES = [
  PluginEntity,
  CatalogueChangeEntity,
  PluginPageEntity,
  PluginPageChangeEntity,
  PluginOwnerEntity,
  ReleaseEntity,
  ReleaseReadmeEntity,
  PluginCountEntity,
  PluginDownloadDayEntity,
  ReleaseDownloadDayEntity,
];
