import { DeprecationDto } from './catalogue.dto';
import { ApiProperty } from '@nestjs/swagger';

/** A plugin the signed-in user owns, released or only claimed (a submit claims before any release). */
export class MyPluginDto {
  @ApiProperty({ example: 'my-plugin' })
  slug: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Null until the first release' })
  latestVersion: string | null;

  @ApiProperty()
  repoUrl: string;

  @ApiProperty()
  verified: boolean;

  @ApiProperty()
  featured: boolean;

  @ApiProperty({ type: DeprecationDto, nullable: true, description: 'Null unless deprecated' })
  deprecated: DeprecationDto | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;

  @ApiProperty({ description: 'Epoch ms' })
  updatedAt: number;
}

export class MyPluginListDto {
  @ApiProperty({ type: [MyPluginDto], description: 'Every plugin you own, by slug' })
  plugins: MyPluginDto[];
}
