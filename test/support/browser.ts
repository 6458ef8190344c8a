import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs with apt (Playwright's own download needs the internet). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the browser tests leave their screenshots (ignored by git) for a person to look at. */
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-results', 'screenshots');

/** Whether the browser tests can run here; on CI they must (`.ci/run` installs Chromium). */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`Chromium is not installed at ${CHROMIUM}; .ci/run installs it with apt`);
  return false;
}

export interface BrowserSession {
  browser: Browser;
  /** A fresh context (its own cookies) whose pages may reach only `appUrl`; the rest is aborted and recorded. */
  newPage(options?: { width?: number; height?: number; locale?: string }): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and failed same-origin requests, as readable lines. */
  problems: string[];
  /** Requests to anything but the app, which were refused. */
  foreignRequests: string[];
  /** Saves a full-page PNG under test-results/screenshots/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
}

/** Launches headless Chromium with the flags this machine's closed network needs. */
export async function openBrowser(appUrl: string): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const origin = new URL(appUrl).origin;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: appUrl,
        viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
        locale: options.locale ?? 'en-US',
      });
      const problems: string[] = [];
      const foreignRequests: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${origin}/`) || url === origin || url.startsWith('data:')) return route.continue();
        foreignRequests.push(url);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => {
        // The browser fetches a page's favicon after the page loads and drops that fetch when the
        // test moves on at once (a click right after load): a race of the test, not an answer.
        if (new URL(request.url()).pathname === '/favicon.ico' && request.failure()?.errorText === 'net::ERR_ABORTED') return;
        if (request.url().startsWith(origin))
          problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
      });
      return {
        page,
        context,
        problems,
        foreignRequests,
        async screenshot(name) {
          const path = join(SCREENSHOT_DIR, `${name}.png`);
          await page.screenshot({ path, fullPage: true });
          return path;
        },
      };
    },
    async close() {
      // Playwright gives each launch a fresh, empty profile of its own and removes it here.
      await browser.close();
    },
  };
}
