import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { FaviconService } from './favicon.service';

/** `/favicon.ico`: the site's icon, which browsers ask for on every site (so no page logs a 404). */
@ApiExcludeController()
@Controller()
export class FaviconController {
  constructor(private readonly favicon: FaviconService) {}

  @Get('favicon.ico')
  icon(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.favicon.send(request, response);
  }
}
