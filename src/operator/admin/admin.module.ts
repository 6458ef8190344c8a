import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { IntegrityModule } from '../../trust/integrity/integrity.module';
import { AdminActivityController } from './admin-activity.controller';
import { AdminActivityService } from './admin-activity.service';
import { AdminKeysController } from './admin-keys.controller';
import { AdminKeysService } from './admin-keys.service';
import { AdminAuditController } from './admin-audit.controller';
import { AdminAuditService } from './admin-audit.service';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersService } from './admin-users.service';

/** The operator console API for what belongs to no feature module: the audit log and the activity it counts, users and roles, keys. */
@Module({
  imports: [AuthModule, IntegrityModule],
  controllers: [AdminActivityController, AdminAuditController, AdminKeysController, AdminUsersController],
  providers: [AdminActivityService, AdminAuditService, AdminKeysService, AdminUsersService],
})
export class AdminModule {}
