import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';

/** Sends a whole HTML page for a status (the web front end's frame: language, title, layout). */
export type HtmlErrorPageRenderer = (request: Request, response: Response, status: 404) => Promise<void>;

/**
 * The page a browser gets for an address nothing answers. The web front end registers how to
 * render it; the problem filter asks here before answering problem+json, so a person who typed a
 * wrong address reads a page in their language while the API (and any client that does not put
 * HTML first in Accept) keeps its problem+json.
 */
@Injectable()
export class HtmlErrorPages {
  private renderer: HtmlErrorPageRenderer | null = null;

  register(renderer: HtmlErrorPageRenderer): void {
    this.renderer = renderer;
  }

  /** A browser's page load: GET or HEAD, HTML preferred to JSON, not under /api. */
  wants(request: Request): boolean {
    if (!this.renderer || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    if (request.path === '/api' || request.path.startsWith('/api/')) return false;
    // JSON listed first: `Accept: */*` (curl, fetch) or none keeps problem+json.
    return request.accepts(['application/problem+json', 'application/json', 'text/html']) === 'text/html';
  }

  /** Renders the page; false when none is registered (the caller answers problem+json). */
  async send(request: Request, response: Response, status: 404): Promise<boolean> {
    if (!this.renderer) return false;
    await this.renderer(request, response, status);
    return true;
  }
}
