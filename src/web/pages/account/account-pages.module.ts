import { Module } from '@nestjs/common';
import { WebCoreModule } from '../../web-core.module';
import { AccountPageController } from './account.controller';
import { AccountPages } from './account.pages';
import { SetupPages } from './setup.pages';
import { SignInPages } from './sign-in.pages';
import { SubmitPages } from './submit.pages';
import { SubscriptionsPages } from './subscriptions.pages';

/** The account pages of the web front end: sign-in, account, submit, install wizard. */
@Module({
  imports: [WebCoreModule],
  controllers: [AccountPageController],
  providers: [SignInPages, AccountPages, SubmitPages, SetupPages, SubscriptionsPages],
})
export class AccountPagesModule {}
