import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export interface BrandingLink {
  label: string;
  url: string;
}

/** The site's branding: one row (id 1), written the first time an admin changes it. */
@Entity('site_branding')
@Check('ck_site_branding_single_row', '"id" = 1')
export class BrandingEntity {
  @PrimaryColumn({ type: 'smallint', default: 1 })
  id: number;

  /** Null: the name the install wizard stored (setting `site.name`), else the built-in name. */
  @Column({ name: 'site_name', type: 'varchar', length: 100, nullable: true })
  siteName: string | null;

  @Column({ name: 'logo_url', type: 'varchar', length: 2048, nullable: true })
  logoUrl: string | null;

  /** `#rrggbb`; null: the built-in colour. */
  @Column({ name: 'primary_color', type: 'varchar', length: 7, nullable: true })
  primaryColor: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  links: BrandingLink[];

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
