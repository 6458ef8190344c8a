import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { defaultFavicon } from './favicon';
import { sameHostLogo } from './layout';
import { WebApi } from './web-api';

const FALLBACK = { siteName: 'Plugin Registry', primaryColor: '#2563eb', logoUrl: null, links: [] };

/**
 * The icon from the branding: the admin's logo when this site serves it (the Content-Security-
 * Policy loads images from this origin only), else the built-in one drawn in the brand colour.
 */
@Injectable()
export class FaviconService {
  constructor(private readonly webApi: WebApi) {}

  async send(request: Request, response: Response): Promise<void> {
    const { data } = await this.webApi.forRequest(request).GET('/api/branding');
    const branding = data ?? FALLBACK;
    // Versioned links (`?v=`, see layout.ts) may be kept long; a bare /favicon.ico an hour.
    response.setHeader('Cache-Control', request.query.v ? 'public, max-age=604800' : 'public, max-age=3600');
    if (branding.logoUrl && sameHostLogo({ branding, request })) {
      response.redirect(302, branding.logoUrl);
      return;
    }
    response.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    response.send(defaultFavicon(branding));
  }
}
