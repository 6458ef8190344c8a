import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length } from 'class-validator';
import { Satisfies, SatisfiesEach } from '../../../common/validation/satisfies';
import { parseScope } from '../../../lib/scopes/scopes';

const IsScope = () =>
  SatisfiesEach('isScope', (item) => {
    if (typeof item !== 'string') return 'must be a string';
    const parsed = parseScope(item);
    return parsed.ok ? null : parsed.message;
  });

/** Epoch milliseconds, an ISO 8601 string, or null. */
const IsTimestampOrNull = () =>
  Satisfies(
    'isTimestampOrNull',
    (v) =>
      v === null ||
      v === undefined ||
      (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) ||
      (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))),
    () => 'expiresAt: must be null, epoch milliseconds or an ISO 8601 timestamp',
  );

export class CreateTokenDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'GitHub Actions' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ type: [String], example: ['publish:my-plugin'], description: '<publish|yank|manage-owners>:<*|slug>' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(32)
  @IsScope()
  scopes: string[];

  @ApiProperty({
    // anyOf, each alternative nullable: OpenAPI 3.0 has no null type, and `nullable` needs a sibling `type`.
    anyOf: [
      { type: 'integer', description: 'epoch ms', nullable: true },
      { type: 'string', format: 'date-time', nullable: true },
    ],
    required: false,
    description: 'null (or absent) for no expiry; must be in the future',
  })
  @IsTimestampOrNull()
  expiresAt?: number | string | null;
}

export class TokenRowDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'First 12 characters of the plaintext, for recognition', example: 'prt_a1B2c3D4' })
  prefix: string;

  @ApiProperty({ type: [String] })
  scopes: string[];

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms; null = no expiry' })
  expiresAt: number | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class TokenListItemDto extends TokenRowDto {
  @ApiProperty({ enum: ['active', 'expired', 'revoked'] })
  status: 'active' | 'expired' | 'revoked';

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms of the last authenticated use' })
  lastUsedAt: number | null;
}

export class CreatedTokenDto {
  @ApiProperty({ description: 'The plaintext publisher token. Shown once; only its hash is stored.' })
  token: string;

  @ApiProperty({ type: TokenRowDto })
  row: TokenRowDto;
}

export class TokenListDto {
  @ApiProperty({ type: [TokenListItemDto] })
  tokens: TokenListItemDto[];
}
