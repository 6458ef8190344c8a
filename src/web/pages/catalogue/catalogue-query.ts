import type { paths } from '../../../client/registry-client';

/** GET /api/plugins's named query parameters, as the typed client knows them. */
export type CatalogueParams = NonNullable<paths['/api/plugins']['get']['parameters']['query']>;
