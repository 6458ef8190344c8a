/** README rendering for ingest: markdown to sanitized HTML, and README locale choice. Framework-free. */
export { renderReadme, README_MAX_LENGTH, README_RENDER_VERSION, TRUNCATION_NOTICE } from './render-readme';
export { forgeReadmeContext, NO_REPOSITORY_CONTEXT, urlReadmeContext } from './context';
export type { ForgeReadmeLocation, ReadmeContext } from './context';
export { DEFAULT_README_LOCALE, resolveReadmeLocale, resolveStoredReadmeLocale } from '../../lib/locale/locale';
export { LINK_REL, README_ATTRIBUTES, README_TAGS } from './sanitize';
export { contextFromSpec, runRenderJob } from './render-job';
export type { ReadmeContextSpec, ReadmeRenderJob, RenderedReadme } from './render-job';
export { ReadmeRenderError, ReadmeRenderPool } from './render-pool';
export type { ReadmeRenderPoolOptions } from './render-pool';
