import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One encoding of a picture, served by this registry. */
export class ServedImageDto {
  @ApiProperty({
    description: 'Path on this registry, `/images/<sha256>.webp`: the hash of the bytes, so it never changes (cached for a year)',
    example: `/images/${'0'.repeat(64)}.webp`,
  })
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
  @ApiPropertyOptional({
    type: () => ServedImageDto,
    description:
      "The icon as this registry serves it (a 128 px square WebP); absent when the manifest names none or it could not be fetched. The manifest's own URL stays in `icon`.",
  })
  icon?: ServedImageDto;
}

/** The detail's pictures: the icon at every width and the screenshots. */
export class PluginImagesDto extends ListImagesDto {
  @ApiPropertyOptional({
    type: () => ServedPictureDto,
    description: 'The icon at 64, 128 and 256 px (squares), `url` being the 128 px one; absent when there is none',
  })
  declare icon?: ServedPictureDto;

  @ApiProperty({
    type: [ServedScreenshotDto],
    description: 'Screenshots at up to 640 and 1280 px wide, never enlarged; `url` is the widest',
  })
  screenshots: ServedScreenshotDto[];
}
