import { ApiProperty } from '@nestjs/swagger';

/** The spec's provider stats; every value null when the forge is unreachable or the repository private. */
export class ProviderStatsDto {
  @ApiProperty({ type: Number, nullable: true })
  stars: number | null;

  @ApiProperty({ type: Number, nullable: true })
  forks: number | null;

  @ApiProperty({ type: Number, nullable: true })
  watchers: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms' })
  lastPushAt: number | null;

  @ApiProperty({ type: String, nullable: true })
  homepage: string | null;
}
