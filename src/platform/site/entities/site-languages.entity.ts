import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The site's languages: one row (id 1), written the first time an admin changes them. */
@Entity('site_languages')
@Check('ck_site_languages_single_row', '"id" = 1')
export class SiteLanguagesEntity {
  @PrimaryColumn({ type: 'smallint', default: 1 })
  id: number;

  @Column({ name: 'default_locale', type: 'varchar', length: 5 })
  defaultLocale: string;

  /** Enabled locales in the order the site offers them; holds the default. */
  @Column({ type: 'jsonb' })
  locales: string[];

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
