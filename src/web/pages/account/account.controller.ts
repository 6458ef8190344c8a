import { Controller, Get, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { WebErrorFilter } from '../../web-error.filter';
import { WebPageInterceptor } from '../../web-page.interceptor';
import type { RenderedPage } from '../../web-renderer';
import { AccountPages } from './account.pages';
import { SetupPages } from './setup.pages';
import { SignInPages } from './sign-in.pages';
import { SubmitPages } from './submit.pages';
import { SubscriptionsPages } from './subscriptions.pages';

@ApiExcludeController()
@Controller()
@UseInterceptors(WebPageInterceptor)
@UseFilters(WebErrorFilter)
export class AccountPageController {
  constructor(
    private readonly signIn: SignInPages,
    private readonly account: AccountPages,
    private readonly submitting: SubmitPages,
    private readonly setup: SetupPages,
    private readonly subscriptions: SubscriptionsPages,
  ) {}

  @Get('sign-in')
  signInPage(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.signIn.page(request, response);
  }

  @Get('auth/link')
  signInLinkConfirm(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.signIn.linkConfirm(request, response);
  }

  @Get('sign-in/link')
  signInLinkRefused(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.signIn.linkRefused(request, response);
  }

  @Get('account')
  accountPage(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.account.page(request, response);
  }

  @Get('account/subscriptions')
  subscriptionsPage(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.subscriptions.page(request, response);
  }

  @Get('submit')
  submitPage(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.submitting.page(request, response);
  }

  @Get('setup')
  setupPage(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.setup.page(request, response);
  }
}
