import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export class OAuthLoginQueryDto {
  @ApiPropertyOptional({
    enum: ['hooks'],
    description:
      'Also ask for the scope that lets the registry install a release webhook for you (GitHub admin:repo_hook, GitLab api, Gitea write:repository); without it the grant is read-only',
  })
  @IsOptional()
  @IsIn(['hooks'])
  access?: 'hooks';
}
