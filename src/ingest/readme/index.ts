/** README rendering for ingest: markdown to sanitized HTML, and README locale choice. Framework-free. */
export { renderReadme, README_MAX_LENGTH, TRUNCATION_NOTICE } from './render-readme';
export { forgeReadmeContext, NO_REPOSITORY_CONTEXT, urlReadmeContext } from './context';
export type { ForgeReadmeLocation, ReadmeContext } from './context';
export { resolveReadmeLocale } from './locale';
export { LINK_REL, README_ATTRIBUTES, README_TAGS } from './sanitize';
