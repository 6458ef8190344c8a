import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { Satisfies } from '../../../common/validation/satisfies';
import { FEATURE_NAMES, isFeatureName } from '../feature-flags';

const FLAGS_EXAMPLE = Object.fromEntries(FEATURE_NAMES.map((name) => [name, true]));

export class FeaturesDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    example: FLAGS_EXAMPLE,
    description: 'Every declared flag and whether it is on',
  })
  flags: Record<string, boolean>;
}

function unknownNames(value: unknown): string[] {
  return value && typeof value === 'object' ? Object.keys(value).filter((name) => !isFeatureName(name)) : [];
}

export class UpdateFeaturesDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    example: { requests: false },
    description: `The flags to change; the others keep their state. Known flags: ${FEATURE_NAMES.join(', ')}`,
  })
  @IsObject()
  @Satisfies(
    'knownFeatureFlags',
    (value) => unknownNames(value).length === 0,
    (property, args) =>
      `${property}: unknown flag ${unknownNames(args.value)
        .map((n) => JSON.stringify(n))
        .join(', ')} (known: ${FEATURE_NAMES.join(', ')})`,
  )
  @Satisfies(
    'booleanFeatureFlags',
    (value) => !value || typeof value !== 'object' || Object.values(value).every((v) => typeof v === 'boolean'),
    (property) => `${property}: every value must be true or false`,
  )
  flags: Record<string, boolean>;
}
