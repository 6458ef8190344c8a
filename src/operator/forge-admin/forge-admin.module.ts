import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { ForgesModule } from '../../platform/forges/forges.module';
import { ForgeAdminController } from './forge-admin.controller';
import { ForgeAdminService } from './forge-admin.service';

/** Forge instances admins add and remove at run time (`/api/admin/forges`, and the install wizard). */
@Module({
  imports: [AuthModule, ForgesModule],
  controllers: [ForgeAdminController],
  providers: [ForgeAdminService],
  exports: [ForgeAdminService],
})
export class ForgeAdminModule {}
