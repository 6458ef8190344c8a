import { ApiProperty } from '@nestjs/swagger';

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

export class ReplicaHealthDto {
  @ApiProperty({ description: 'Position of the replica in DATABASE_READ_URLS, from 0 (its URL is never shown).' })
  index: number;

  @ApiProperty({ enum: ['up', 'down'], description: 'down: catalogue reads use the primary until the periodic probe sees it answer.' })
  state: 'up' | 'down';

  @ApiProperty({ description: 'When it entered this state, epoch milliseconds.' })
  since: number;
}

export class ReadinessDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status: 'ok' | 'unavailable';

  @ApiProperty({ enum: ['up', 'down'] })
  database: 'up' | 'down';

  @ApiProperty({ enum: ['applied', 'pending', 'unknown'] })
  migrations: 'applied' | 'pending' | 'unknown';

  @ApiProperty({
    type: () => ReplicaHealthDto,
    isArray: true,
    required: false,
    description: 'Only with DATABASE_READ_URLS. A replica that is down does not make the instance unready.',
  })
  replicas?: ReplicaHealthDto[];
}
