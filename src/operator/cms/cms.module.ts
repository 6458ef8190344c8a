import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { SiteModule } from '../../platform/site/site.module';
import { AdminPagesController } from './admin-pages.controller';
import { PageRenderer } from './page-renderer';
import { PagesController } from './pages.controller';
import { PagesRepository } from './pages.repository';
import { PagesService } from './pages.service';

/** The operator's own pages (about, terms, ...), written in Markdown, one per language. */
@Module({
  imports: [AuthModule, SiteModule],
  controllers: [PagesController, AdminPagesController],
  providers: [repositoryProvider(PagesRepository), PageRenderer, PagesService],
})
export class CmsModule {}
