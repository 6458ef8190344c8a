import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The largest index or size the API takes: far beyond any log, and exact in a JSON number. */
export const MAX_LOG_NUMBER = 2 ** 52;

/** A whole number spelled in decimal digits becomes a number; anything else stays, for IsInt to refuse. */
const decimal = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value,
);

function logNumber(field: string, min: number): PropertyDecorator {
  return (target, key) => {
    decimal(target, key);
    IsInt({ message: `${field}: must be a whole number` })(target, key);
    Min(min, { message: `${field}: must be at least ${min}` })(target, key);
    Max(MAX_LOG_NUMBER, { message: `${field}: must be at most ${MAX_LOG_NUMBER}` })(target, key);
  };
}

export class InclusionProofQueryDto {
  @ApiProperty({ minimum: 0, description: "The leaf index (a release's `log_index`)", example: 42 })
  @logNumber('index', 0)
  index: number;

  @ApiPropertyOptional({
    minimum: 1,
    description: "The tree size to prove against (a checkpoint's size); absent: the current head's",
    example: 100,
  })
  @IsOptional()
  @logNumber('size', 1)
  size?: number;
}

export class ConsistencyProofQueryDto {
  @ApiProperty({ minimum: 0, description: 'The older tree size', example: 10 })
  @logNumber('from', 0)
  from: number;

  @ApiProperty({ minimum: 0, description: "The newer tree size, at most the current head's", example: 100 })
  @logNumber('to', 0)
  to: number;
}

export class LogEntryParamsDto {
  @ApiProperty({ minimum: 0, description: 'The leaf index', example: 42 })
  @logNumber('index', 0)
  index: number;
}

export class LogKeyDto {
  @ApiProperty({
    description: "The log's origin: the first line of every checkpoint, and the note key's name",
    example: 'registry.example.org/log',
  })
  origin: string;

  @ApiProperty({
    type: [String],
    description:
      'C2SP signed-note verifier keys (`<origin>+<key hash hex>+<base64(0x01 || Ed25519 key)>`) of every key in the published key set, current first',
  })
  verifier_keys: string[];
}

export class InclusionProofDto {
  @ApiProperty()
  index: number;

  @ApiProperty({ description: 'The tree size the proof is for' })
  size: number;

  @ApiProperty({ description: 'base64 of the RFC 9162 leaf hash, SHA-256(0x00 || entry)' })
  leaf_hash: string;

  @ApiProperty({ type: [String], description: 'base64 hashes, RFC 9162 section 2.1.3.1 order (bottom up)' })
  proof: string[];

  @ApiProperty({ description: "base64 of the leaf's bytes: the entry as canonical JSON" })
  entry: string;
}

export class ConsistencyProofDto {
  @ApiProperty()
  from: number;

  @ApiProperty()
  to: number;

  @ApiProperty({ type: [String], description: 'base64 hashes, RFC 9162 section 2.1.4.1 order; empty when from is 0 or equals to' })
  proof: string[];
}

export class LogEntryDto {
  @ApiProperty()
  index: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The entry, decoded: {type: release|resign, slug, version, kid, jws_sha256}, {type: yank|unyank, slug, version} or {type: keys, keys_sha256} (docs/transparency-log.md)',
  })
  entry: Record<string, unknown>;

  @ApiProperty({ description: 'base64 of the RFC 9162 leaf hash' })
  leaf_hash: string;
}
