import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../platform/auth/session-tokens';
import { cookieValue } from '../platform/auth/auth-context';
import type { components, RegistryClient } from '../client/registry-client';
import { translator, type Translate } from './i18n/messages';
import { WebApi } from './web-api';

export type UserDto = components['schemas']['UserDto'];
export type BrandingDto = components['schemas']['BrandingDto'];

/** The visitor's chosen language, remembered for a year once they pick one. */
export const LANGUAGE_COOKIE = 'registry_lang';

/** What every page knows about the request it renders: the visitor, the site, the language. */
export interface WebContext {
  readonly request: Request;
  readonly response: Response;
  readonly api: RegistryClient;
  /** The site locale the visitor reads (one of `locales`): READMEs and pages in it when they exist. */
  readonly locale: string;
  readonly locales: readonly string[];
  readonly t: Translate;
  readonly branding: BrandingDto;
  readonly features: Readonly<Record<string, boolean>>;
  readonly me: UserDto | null;
}

/** The first of the wanted tags the site offers: exact match, then the same language. */
export function chooseLocale(wanted: readonly string[], offered: readonly string[], fallback: string): string {
  for (const tag of wanted) {
    const exact = offered.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = tag.split('-')[0].toLowerCase();
    const same = offered.find((l) => l.split('-')[0].toLowerCase() === language);
    if (same) return same;
  }
  return fallback;
}

/** Accept-Language's tags, most wanted first (q-values honoured, `*` ignored). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(entry.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

const FALLBACK_BRANDING: BrandingDto = { siteName: 'Plugin Registry', logoUrl: null, primaryColor: '#2563eb', links: [] };

@Injectable()
export class WebContextFactory {
  constructor(private readonly webApi: WebApi) {}

  async build(request: Request, response: Response): Promise<WebContext> {
    const api = this.webApi.forRequest(request);
    const signedIn = cookieValue(request, SESSION_COOKIE) !== null;
    const [branding, i18n, features, me] = await Promise.all([
      api.GET('/api/branding'),
      api.GET('/api/i18n'),
      api.GET('/api/features'),
      signedIn ? api.GET('/api/auth/me') : Promise.resolve(null),
    ]);
    const locales = i18n.data?.locales ?? ['en'];
    const picked = typeof request.query.lang === 'string' ? request.query.lang : null;
    const remembered = cookieValue(request, LANGUAGE_COOKIE);
    const locale = chooseLocale(
      [...(picked ? [picked] : []), ...(remembered ? [remembered] : []), ...acceptedLanguages(request.headers['accept-language'])],
      locales,
      i18n.data?.defaultLocale ?? locales[0],
    );
    if (picked && locales.includes(picked)) {
      response.cookie(LANGUAGE_COOKIE, picked, { path: '/', maxAge: 365 * 24 * 3600 * 1000, sameSite: 'lax', httpOnly: false });
    }
    return {
      request,
      response,
      api,
      locale,
      locales,
      t: translator(locale),
      branding: branding.data ?? FALLBACK_BRANDING,
      features: features.data?.flags ?? {},
      me: me?.data ?? null,
    };
  }
}
