import { Controller, Get, Param, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { WebErrorFilter } from '../../web-error.filter';
import { WebPageInterceptor } from '../../web-page.interceptor';
import type { RenderedPage } from '../../web-renderer';
import { AdminAuditPages } from './admin-audit.pages';
import { AdminCmsPages } from './admin-cms.pages';
import { AdminDeliveryPages } from './admin-deliveries.pages';
import { AdminKeyPages } from './admin-keys.pages';
import { AdminKindPages } from './admin-kinds.pages';
import { AdminPluginPages } from './admin-plugins.pages';
import { AdminRequestPages } from './admin-requests.pages';
import { AdminSettingsPages } from './admin-settings.pages';
import { AdminUserPages } from './admin-users.pages';

/** The admin console under /admin: every page is rendered from the /api/admin endpoints as the visitor. */
@ApiExcludeController()
@Controller('admin')
@UseInterceptors(WebPageInterceptor)
@UseFilters(WebErrorFilter)
export class AdminPageController {
  constructor(
    private readonly plugins: AdminPluginPages,
    private readonly kinds: AdminKindPages,
    private readonly users: AdminUserPages,
    private readonly settings: AdminSettingsPages,
    private readonly cms: AdminCmsPages,
    private readonly auditLog: AdminAuditPages,
    private readonly signingKeys: AdminKeyPages,
    private readonly wishlist: AdminRequestPages,
    private readonly webhookDeliveries: AdminDeliveryPages,
  ) {}

  @Get()
  home(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.plugins.home(request, response);
  }

  @Get('plugins')
  pluginList(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.plugins.list(request, response);
  }

  @Get('plugins/:slug')
  plugin(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Param('slug') slug: string): Promise<RenderedPage> {
    return this.plugins.detail(request, response, slug);
  }

  @Get('kinds')
  kindList(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.kinds.kinds(request, response);
  }

  @Get('users')
  userList(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.users.users(request, response);
  }

  @Get('settings')
  operatorSettings(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.settings.settings(request, response);
  }

  @Get('site')
  site(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.settings.site(request, response);
  }

  @Get('pages')
  pageList(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.cms.list(request, response);
  }

  @Get('pages/:slug')
  page(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Param('slug') slug: string): Promise<RenderedPage> {
    return this.cms.edit(request, response, slug);
  }

  @Get('audit')
  audit(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.auditLog.audit(request, response);
  }

  @Get('keys')
  keys(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.signingKeys.keys(request, response);
  }

  @Get('requests')
  requests(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.wishlist.requests(request, response);
  }

  @Get('deliveries')
  deliveries(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.webhookDeliveries.deliveries(request, response);
  }
}
