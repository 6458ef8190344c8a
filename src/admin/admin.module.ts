import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { IntegrityModule } from '../integrity/integrity.module';
import { AdminKeysController } from './admin-keys.controller';
import { AdminKeysService } from './admin-keys.service';
import { AdminAuditController } from './admin-audit.controller';
import { AdminAuditService } from './admin-audit.service';

/** The operator console API. */
@Module({
  imports: [AuthModule, IntegrityModule],
  controllers: [AdminAuditController, AdminKeysController],
  providers: [AdminAuditService, AdminKeysService],
})
export class AdminModule {}
