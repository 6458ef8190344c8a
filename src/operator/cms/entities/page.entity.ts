import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** One CMS page in one locale: the markdown an admin wrote and the sanitized HTML rendered from it. */
@Entity('cms_page')
@Index('uq_cms_page_slug_locale', ['slug', 'locale'], { unique: true })
export class PageEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 5 })
  locale: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'text' })
  markdown: string;

  /** Rendered and sanitized when the page is written, so a read never renders. */
  @Column({ type: 'text' })
  html: string;

  @Column({ type: 'boolean', default: false })
  published: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
