/** The response header carrying a `latest` answer's freshness statement (the body's `freshness` too). */
export const FRESHNESS_HEADER = 'Registry-Freshness';
