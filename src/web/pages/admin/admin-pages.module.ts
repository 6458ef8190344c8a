import { Module } from '@nestjs/common';
import { WebCoreModule } from '../../web-core.module';
import { AdminAuditPages } from './admin-audit.pages';
import { AdminCmsPages } from './admin-cms.pages';
import { AdminDeliveryPages } from './admin-deliveries.pages';
import { AdminKeyPages } from './admin-keys.pages';
import { AdminKindPages } from './admin-kinds.pages';
import { AdminPluginPages } from './admin-plugins.pages';
import { AdminRequestPages } from './admin-requests.pages';
import { AdminSettingsPages } from './admin-settings.pages';
import { AdminUserPages } from './admin-users.pages';
import { AdminPageController } from './admin.controller';

/** The admin pages of the web front end. */
@Module({
  imports: [WebCoreModule],
  controllers: [AdminPageController],
  providers: [
    AdminPluginPages,
    AdminKindPages,
    AdminUserPages,
    AdminSettingsPages,
    AdminCmsPages,
    AdminAuditPages,
    AdminKeyPages,
    AdminRequestPages,
    AdminDeliveryPages,
  ],
})
export class AdminPagesModule {}
