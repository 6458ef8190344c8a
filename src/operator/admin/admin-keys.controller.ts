import { Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { KeyRotationDto, SigningKeyListDto } from '../../trust/integrity/dto/signing-key.dto';
import { AdminKeysService } from './admin-keys.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/keys')
@AdminOnly()
export class AdminKeysController {
  constructor(private readonly keys: AdminKeysService) {}

  @Get()
  @ApiOkResponse({
    type: SigningKeyListDto,
    description: 'Every signing key: current, previous, draining (with the releases it still has to have re-signed), retired',
  })
  @ApiOperation({ summary: 'List the signing keys' })
  list(): Promise<SigningKeyListDto> {
    return this.keys.list();
  }

  @Post('rotate')
  @HttpCode(200)
  @ApiOkResponse({
    type: KeyRotationDto,
    description:
      'New key current, current → previous, previous → draining (its releases are re-signed with the new key in the background, then it retires); `pending` counts those releases (audited key.rotate). Never waits for an earlier drain: keys still draining are listed in `stillDraining`',
  })
  @ApiOperation({ summary: 'Rotate the signing key' })
  rotate(@Auth() auth: AuthContext, @Req() request: Request): Promise<KeyRotationDto> {
    return this.keys.rotate(auth, clientIp(request));
  }
}
