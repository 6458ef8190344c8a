import { Controller, Get, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { WebErrorFilter } from '../../web-error.filter';
import { WebPageInterceptor } from '../../web-page.interceptor';
import type { RenderedPage } from '../../web-renderer';
import { HomePages } from './home.pages';

@ApiExcludeController()
@Controller()
@UseInterceptors(WebPageInterceptor)
@UseFilters(WebErrorFilter)
export class HomePageController {
  constructor(private readonly pages: HomePages) {}

  @Get()
  home(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.pages.home(request, response);
  }
}
