import { ApiProperty, type ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/** A nullable object by reference, with the `type` Redocly wants beside `nullable`. */
const nullableRef = (model: string, description: string) => ({ type: 'object', nullable: true, allOf: [{ $ref: getSchemaPath(model) }], description }) as unknown as ApiPropertyOptions;

/** One encoding of a picture, served by this registry. */
export class ServedImageDto {
  @ApiProperty({ description: 'Path on this registry, `/images/<sha256>.webp`: the hash of the bytes, so it never changes (cached for a year)', example: `/images/${'0'.repeat(64)}.webp` })
  url: string;

  @ApiProperty({ description: 'Pixels' })
  width: number;

  @ApiProperty({ description: 'Pixels' })
  height: number;
}

/** A picture at several widths: `url`, `width` and `height` name the default one. */
export class ServedPictureDto extends ServedImageDto {
  @ApiProperty({ type: [ServedImageDto], description: 'Every encoding, narrowest first (for `srcset`)' })
  variants: ServedImageDto[];
}

export class ServedScreenshotDto extends ServedPictureDto {
  @ApiProperty({ description: "Its place in the manifest's `screenshots` (a screenshot that could not be fetched is left out)" })
  index: number;

  @ApiProperty({ type: String, nullable: true })
  caption: string | null;

  @ApiProperty({ type: String, nullable: true })
  alt: string | null;
}

/** A list item's pictures: the icon only, LIST_ICON_WIDTH (128) px square. */
export class ListImagesDto {
  @ApiProperty(nullableRef('ServedImageDto', "The icon as this registry serves it (a 128 px square WebP); null when the manifest names none or it could not be fetched. The manifest's own URL stays in `icon`."))
  icon: ServedImageDto | null;
}

/** The detail's pictures: the icon at every width and the screenshots. */
export class PluginImagesDto extends ListImagesDto {
  @ApiProperty(nullableRef('ServedPictureDto', 'The icon at 64, 128 and 256 px (squares); `url` is the 128 px one'))
  declare icon: ServedPictureDto | null;

  @ApiProperty({ type: [ServedScreenshotDto], description: 'Screenshots at up to 640 and 1280 px wide, never enlarged; `url` is the widest' })
  screenshots: ServedScreenshotDto[];
}
