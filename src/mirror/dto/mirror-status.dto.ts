import { ApiProperty } from '@nestjs/swagger';

export class MirrorFailureDto {
  @ApiProperty({ example: 'my-plugin' })
  slug: string;

  @ApiProperty({ example: '1.2.0' })
  version: string;

  @ApiProperty({ description: "Why it was refused: the verifier's code", example: 'HASH_MISMATCH' })
  code: string;

  @ApiProperty({ description: 'What did not verify' })
  message: string;

  @ApiProperty({ description: 'When, in milliseconds since the epoch' })
  at: number;
}

export class MirrorStatusDto {
  @ApiProperty({ description: 'True when this instance is a read-only mirror (MIRROR_OF is set)' })
  mirror: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'The registry mirrored' })
  upstream: string | null;

  @ApiProperty({
    description:
      'True when this instance is the one following upstream now: of several instances on one PostgreSQL database, one follows at a time (the others take over when it stops)',
  })
  following: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Upstream's changes-feed cursor after the last change applied; null: none yet",
  })
  cursor: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'When upstream was last read, in milliseconds since the epoch' })
  lastPollAt: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last read of upstream failed; null when it succeeded' })
  lastError: string | null;

  @ApiProperty({ description: 'Releases refused so far' })
  failureCount: number;

  @ApiProperty({ type: [MirrorFailureDto], description: 'The latest 100 refusals, newest first' })
  failures: MirrorFailureDto[];
}
