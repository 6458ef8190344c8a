import { Module } from '@nestjs/common';
import { WebCoreModule } from '../../web-core.module';

/** The admin pages of the web front end. */
@Module({
  imports: [WebCoreModule],
  controllers: [],
  providers: [],
})
export class AdminPagesModule {}
