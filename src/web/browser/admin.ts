import { api, problemMessage } from './lib/api';
import { forgeBody, forgeForm } from './lib/forge-form';
import { announce, ready, t } from './lib/page';

/**
 * The admin console's changes: every `form[data-action]` is one API call through the typed
 * client, asked for confirmation first when it carries `data-confirm`. On success the page is
 * loaded again (the server renders the new state) and the outcome is announced there; on
 * failure the API's problem, naming each wrong field, is announced and the fields marked.
 */

type Data = DOMStringMap;
interface Outcome {
  error?: unknown;
}
type Handler = (form: HTMLFormElement, data: Data) => Promise<Outcome>;

const FLASH = 'registry-admin-flash';

/** A problem raised before any request (a JSON field that does not parse, an unknown login). */
class LocalProblem {
  constructor(readonly detail: string) {}
}

function control(form: HTMLFormElement, name: string): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null {
  const element = form.elements.namedItem(name);
  return element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement
    ? element
    : null;
}

function text(form: HTMLFormElement, name: string): string {
  return control(form, name)?.value.trim() ?? '';
}

function checked(form: HTMLFormElement, name: string): boolean {
  const element = control(form, name);
  return element instanceof HTMLInputElement && element.checked;
}

function lines(value: string): string[] {
  return value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function json<T>(form: HTMLFormElement, name: string): T {
  try {
    return JSON.parse(text(form, name) || '[]') as T;
  } catch (error) {
    throw new LocalProblem(t('admin.json.invalid', { message: error instanceof Error ? error.message : String(error) }));
  }
}

/** The settings form's values, each converted back to the type its input declares (`data-type`). */
function typedSettings(form: HTMLFormElement): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const element of Array.from(form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[data-type]'))) {
    const type = element.dataset.type;
    if (type === 'flag' && element instanceof HTMLInputElement) values[element.name] = element.checked;
    else if (type === 'integer') values[element.name] = element.value.trim() === '' ? null : Number(element.value);
    else if (type === 'lines') values[element.name] = lines(element.value);
    else values[element.name] = element.value;
  }
  return values;
}

/** `Label | https://…` lines as branding links. */
function brandingLinks(value: string): { label: string; url: string }[] {
  return lines(value).map((line) => {
    const bar = line.lastIndexOf('|');
    return bar < 0 ? { label: line, url: line } : { label: line.slice(0, bar).trim(), url: line.slice(bar + 1).trim() };
  });
}

async function userIdOf(login: string): Promise<string> {
  const { data, error } = await api.GET('/api/admin/users', { params: { query: { search: login, limit: 100 } } });
  if (error || !data) throw error ?? new LocalProblem(t('admin.failed'));
  const matches = data.users.filter((u) => u.login.toLowerCase() === login.toLowerCase());
  if (matches.length !== 1) throw new LocalProblem(t('admin.owner.unknown'));
  return matches[0].id;
}

/**
 * An empty JSON body for changes that take none: the API's CSRF check wants cookie-session
 * changes to be JSON, and a request without a body has no content type to check.
 */

const slugPath = (d: Data) => ({ params: { path: { slug: d.slug ?? '' } } });

const kindBody = (form: HTMLFormElement) => ({
  label: text(form, 'label'),
  description: text(form, 'description') || null,
  enabled: checked(form, 'enabled'),
  requireProvenance: checked(form, 'requireProvenance'),
  extensionFields: json<never[]>(form, 'extensionFields'),
});

const pageBody = (form: HTMLFormElement) => ({
  title: text(form, 'title'),
  markdown: control(form, 'markdown')?.value ?? '',
  published: checked(form, 'published'),
});

const HANDLERS: Record<string, Handler> = {
  'plugin.verify': (_f, d) => api.POST('/api/admin/plugins/{slug}/verify', slugPath(d)),
  'plugin.unverify': (_f, d) => api.POST('/api/admin/plugins/{slug}/unverify', slugPath(d)),
  'plugin.feature': (_f, d) => api.POST('/api/admin/plugins/{slug}/feature', slugPath(d)),
  'plugin.unfeature': (_f, d) => api.POST('/api/admin/plugins/{slug}/unfeature', slugPath(d)),
  'plugin.refresh': (_f, d) => api.POST('/api/admin/plugins/{slug}/refresh-manifest', slugPath(d)),
  'release.delete': (_f, d) =>
    api.DELETE('/api/admin/plugins/{slug}/releases/{version}', { params: { path: { slug: d.slug ?? '', version: d.version ?? '' } } }),
  'owner.add': async (f, d) =>
    api.POST('/api/admin/plugins/{slug}/owners', { ...slugPath(d), body: { add: [await userIdOf(text(f, 'login'))] } }),
  'owner.remove': (_f, d) => api.POST('/api/admin/plugins/{slug}/owners', { ...slugPath(d), body: { remove: [d.user ?? ''] } }),
  'delivery.replay': (_f, d) =>
    api.POST('/api/plugins/{slug}/deliveries/{id}/replay', { params: { path: { slug: d.slug ?? '', id: d.id ?? '' } } }),
  'kind.create': (f) => api.POST('/api/admin/kinds', { body: { key: text(f, 'key'), ...kindBody(f) } }),
  'kind.update': (f, d) => api.PUT('/api/admin/kinds/{key}', { params: { path: { key: d.key ?? '' } }, body: kindBody(f) }),
  'kind.delete': (_f, d) => api.DELETE('/api/admin/kinds/{key}', { params: { path: { key: d.key ?? '' } } }),
  'fields.update': (f) => api.PUT('/api/admin/extension-fields', { body: { fields: json<never[]>(f, 'extensionFields') } }),
  'user.role': (f, d) =>
    api.PATCH('/api/admin/users/{id}', { params: { path: { id: d.id ?? '' } }, body: { role: text(f, 'role') as 'user' | 'admin' } }),
  'user.disable': (_f, d) => api.PATCH('/api/admin/users/{id}', { params: { path: { id: d.id ?? '' } }, body: { disabled: true } }),
  'user.enable': (_f, d) => api.PATCH('/api/admin/users/{id}', { params: { path: { id: d.id ?? '' } }, body: { disabled: false } }),
  'settings.update': (f) => api.PATCH('/api/admin/settings', { body: typedSettings(f) as never }),
  'branding.update': (f) =>
    api.PATCH('/api/admin/branding', {
      body: {
        siteName: text(f, 'siteName'),
        logoUrl: text(f, 'logoUrl') || null,
        primaryColor: text(f, 'primaryColor'),
        links: brandingLinks(control(f, 'links')?.value ?? ''),
      },
    }),
  'i18n.update': (f) =>
    api.PATCH('/api/admin/i18n', {
      body: {
        defaultLocale: text(f, 'defaultLocale'),
        locales: text(f, 'locales')
          .split(/[\s,]+/)
          .filter(Boolean),
      },
    }),
  'features.update': (f) =>
    api.PATCH('/api/admin/features', {
      body: {
        flags: Object.fromEntries(
          Array.from(f.querySelectorAll<HTMLInputElement>('input[type=checkbox]')).map((box) => [box.name, box.checked]),
        ),
      },
    }),
  'page.create': (f) => api.POST('/api/admin/pages', { body: { slug: text(f, 'slug'), locale: text(f, 'locale'), ...pageBody(f) } }),
  'page.update': (f, d) =>
    api.PUT('/api/admin/pages/{slug}', { params: { path: { slug: d.slug ?? '' }, query: { locale: d.locale ?? '' } }, body: pageBody(f) }),
  'page.delete': (_f, d) =>
    api.DELETE('/api/admin/pages/{slug}', { params: { path: { slug: d.slug ?? '' }, query: { locale: d.locale ?? '' } } }),
  'keys.rotate': () => api.POST('/api/admin/keys/rotate'),
  'forge.create': (f) => api.POST('/api/admin/forges', { body: forgeBody(f) }),
  'forge.delete': (_f, d) => api.DELETE('/api/admin/forges/{name}', { params: { path: { name: d.name ?? '' } } }),
  'request.update': (f, d) => {
    const status = text(f, 'status') as 'open' | 'fulfilled' | 'closed';
    return api.PATCH('/api/admin/requests/{id}', {
      params: { path: { id: d.id ?? '' } },
      body: { status, ...(status === 'fulfilled' ? { plugin: text(f, 'plugin') } : {}) },
    });
  },
};

/** Where a form's outcome is announced: its own live region, else the page's. */
function regionFor(form: HTMLFormElement): Element | null {
  return form.querySelector('[role=status]') ?? document.getElementById('admin-status');
}

/** Marks the inputs a problem names (`errors[].path` is a JSON pointer to the body field). */
function markFields(form: HTMLFormElement, error: unknown): void {
  for (const input of Array.from(form.querySelectorAll('[aria-invalid]'))) input.removeAttribute('aria-invalid');
  const errors = (error as { errors?: { path?: string }[] } | null)?.errors ?? [];
  for (const entry of errors) {
    const name = (entry.path ?? '').split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (name) control(form, name)?.setAttribute('aria-invalid', 'true');
  }
}

async function run(form: HTMLFormElement): Promise<void> {
  const handler = HANDLERS[form.dataset.action ?? ''];
  if (!handler) return;
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
  const region = regionFor(form);
  const buttons = Array.from(form.querySelectorAll('button'));
  buttons.forEach((b) => (b.disabled = true));
  announce(region, t('status.working'), 'busy');
  try {
    const { error } = await handler(form, form.dataset);
    if (error) {
      markFields(form, error);
      announce(region, problemMessage(error, t('admin.failed')), 'error');
      return;
    }
    sessionStorage.setItem(FLASH, t('status.saved'));
    window.location.reload();
  } catch (error) {
    markFields(form, error);
    announce(region, error instanceof LocalProblem ? error.detail : problemMessage(error, t('admin.failed')), 'error');
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

ready(() => {
  for (const form of Array.from(document.querySelectorAll<HTMLFormElement>('form[data-action="forge.create"]'))) forgeForm(form);
  const flash = sessionStorage.getItem(FLASH);
  if (flash) {
    sessionStorage.removeItem(FLASH);
    announce(document.getElementById('admin-status'), flash, 'ok');
  }
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.action) return;
    event.preventDefault();
    void run(form);
  });
});
