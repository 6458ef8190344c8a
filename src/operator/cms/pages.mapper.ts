import type { AdminPageDto, PageDto } from './dto/page.dto';
import type { PageEntity } from './entities/page.entity';

export function toPageDto(page: PageEntity): PageDto {
  return { slug: page.slug, title: page.title, html: page.html, locale: page.locale, updatedAt: page.updatedAt.getTime() };
}

export function toAdminPageDto(page: PageEntity): AdminPageDto {
  return {
    slug: page.slug,
    locale: page.locale,
    title: page.title,
    markdown: page.markdown,
    published: page.published,
    createdAt: page.createdAt.getTime(),
    updatedAt: page.updatedAt.getTime(),
  };
}
