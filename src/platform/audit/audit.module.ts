import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEntryEntity } from './entities/audit-entry.entity';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit trail every module writes to; global because nearly every mutation audits. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntryEntity])],
  providers: [AuditRepository, AuditService],
  exports: [AuditService, AuditRepository],
})
export class AuditModule {}
