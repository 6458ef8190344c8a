import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../platform/auth/auth.decorators';
import { AdminAuditService } from './admin-audit.service';
import { AuditPageDto, AuditQueryDto } from './dto/audit.dto';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/audit')
@AdminOnly()
export class AdminAuditController {
  constructor(private readonly audit: AdminAuditService) {}

  @Get()
  @ApiOkResponse({ type: AuditPageDto })
  @ApiOperation({ summary: 'Read the audit log' })
  page(@Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.audit.page(query);
  }
}
