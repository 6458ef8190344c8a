const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path parameter can be a row id at all (checked before the database sees it). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
