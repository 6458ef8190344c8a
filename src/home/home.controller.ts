import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HomeService } from './home.service';

@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(private readonly home: HomeService) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  page(): Promise<string> {
    return this.home.page();
  }
}
