import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HtmlErrorPages } from '../common/errors/html-error-pages';
import { WebRenderer } from './web-renderer';

/**
 * The 404 page for an address nothing answers, when a browser asks (common/errors/html-error-pages):
 * the site's frame in the visitor's language, with its title, search box and navigation.
 */
@Injectable()
export class WebNotFoundPage implements OnModuleInit {
  private readonly logger = new Logger('Web');

  constructor(
    private readonly pages: HtmlErrorPages,
    private readonly renderer: WebRenderer,
  ) {}

  onModuleInit(): void {
    this.pages.register((request, response, status) => this.send(request, response, status));
  }

  private async send(request: Request, response: Response, status: 404): Promise<void> {
    let body: string;
    try {
      body = (await this.renderer.render(request, response, () => Promise.resolve({ status }))).body;
    } catch (error) {
      // The API behind the frame is down: still a page, a plain one.
      this.logger.warn(`the 404 page was rendered without its frame: ${error instanceof Error ? error.message : String(error)}`);
      body =
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head><body><main><h1>Not found</h1><p>There is nothing at this address.</p><p><a href="/">Home</a></p></main></body></html>';
    }
    response
      .status(status)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Vary', 'Accept, Cookie, Accept-Language');
    response.send(request.method === 'HEAD' ? undefined : body);
  }
}
