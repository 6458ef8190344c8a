import { ApiProperty } from '@nestjs/swagger';

export class StatsDto {
  @ApiProperty({ description: 'Plugins in the catalogue' })
  plugins: number;

  @ApiProperty({ description: 'Downloads of every release, counted through the registry' })
  downloads: number;

  @ApiProperty({ description: 'Distinct users owning at least one plugin' })
  authors: number;

  @ApiProperty({ description: 'Open wishlist requests' })
  requests: number;

  @ApiProperty({ description: 'Enabled kinds' })
  kinds: number;
}
