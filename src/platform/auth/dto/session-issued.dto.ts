import { ApiProperty } from '@nestjs/swagger';
import { UserDto } from '../../users/dto/user.dto';

export class SessionIssuedDto {
  @ApiProperty({ description: 'Session JWT (HS256, 7 days); send as Authorization: Bearer' })
  token: string;

  @ApiProperty({ type: UserDto })
  user: UserDto;
}
