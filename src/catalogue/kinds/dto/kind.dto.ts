import { ApiProperty } from '@nestjs/swagger';

export class ExtensionFieldDto {
  @ApiProperty()
  key: string;

  @ApiProperty({ required: false, description: 'What people read for the field; the key when absent', example: 'Dark variant' })
  label?: string;

  @ApiProperty({ enum: ['string', 'number', 'boolean', 'string[]'] })
  type: string;

  @ApiProperty({ required: false })
  required?: boolean;

  @ApiProperty({ required: false, type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } })
  enum?: (string | number)[];

  @ApiProperty({ required: false })
  maxLength?: number;
}

export class KindDto {
  @ApiProperty({ example: 'theme' })
  key: string;

  @ApiProperty({ example: 'Themes' })
  label: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: [ExtensionFieldDto] })
  extensionFields: ExtensionFieldDto[];

  @ApiProperty({
    description: 'Releases of this kind must carry a Sigstore provenance bundle that verifies at ingest (refused with 422 otherwise)',
  })
  requireProvenance: boolean;
}

export class KindListDto {
  @ApiProperty({ type: [KindDto] })
  kinds: KindDto[];

  @ApiProperty({ type: [ExtensionFieldDto], description: 'Extension fields declared for every kind' })
  extensionFields: ExtensionFieldDto[];
}
