import type { ForgeEndpoints } from '../forges/urls';
import { forgeReadmeContext, NO_REPOSITORY_CONTEXT, type ReadmeContext, urlReadmeContext } from './context';
import { README_MAX_LENGTH, renderReadme } from './render-readme';
import { sanitizeReadmeHtml } from './sanitize';

/**
 * Where a README's relative references resolve, as plain data: a ReadmeContext holds functions,
 * which cannot cross to a worker thread, so the worker rebuilds the context from this.
 */
export type ReadmeContextSpec =
  | { kind: 'forge'; forge: ForgeEndpoints; repoPath: string; tag: string; readmePath: string }
  | { kind: 'url'; url: string }
  | { kind: 'none' };

/**
 * Markdown to render, or (`sanitize`) HTML stored before its markdown was kept, to pass through
 * the current sanitizer again.
 */
export type ReadmeRenderJob = { markdown: string; context: ReadmeContextSpec } | { sanitize: string };

export interface RenderedReadme {
  html: string;
  /** The markdown was longer than README_MAX_LENGTH, so the HTML shows only its start (and says so). */
  truncated: boolean;
}

export function contextFromSpec(spec: ReadmeContextSpec): ReadmeContext {
  if (spec.kind === 'forge') {
    // Only the endpoints cross over: nothing else of the forge's configuration reaches the worker.
    const forge: ForgeEndpoints = { type: spec.forge.type, webUrl: spec.forge.webUrl, apiUrl: spec.forge.apiUrl };
    return forgeReadmeContext({ forge, repoPath: spec.repoPath, tag: spec.tag, readmePath: spec.readmePath });
  }
  if (spec.kind === 'url') return urlReadmeContext(spec.url);
  return NO_REPOSITORY_CONTEXT;
}

/**
 * What a render worker does with one job; also callable in-thread (specs, benchmarks). With the
 * image proxy's key, absolute image URLs become signed same-origin `/image-proxy` addresses.
 */
export function runRenderJob(job: ReadmeRenderJob, imageProxyKey: Buffer | null = null): RenderedReadme {
  if ('sanitize' in job) return { html: sanitizeReadmeHtml(job.sanitize, imageProxyKey), truncated: false };
  return {
    html: renderReadme(job.markdown, contextFromSpec(job.context), imageProxyKey),
    truncated: job.markdown.length > README_MAX_LENGTH,
  };
}
