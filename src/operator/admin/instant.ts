const EPOCH_MS = /^\d{1,16}$/;
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d))?$/;
/** The ECMAScript Date range, in ms either side of the epoch. */
const MAX_TIME_MS = 8.64e15;

/**
 * A point in time written as epoch milliseconds or ISO 8601. A date alone is midnight UTC; a
 * date with a time must say its offset (`Z`, `+02:00`), so the answer never depends on where the
 * server runs. Null when the text is neither, or names a day that does not exist.
 */
export function parseInstant(text: string): Date | null {
  if (EPOCH_MS.test(text)) {
    const ms = Number(text);
    return ms <= MAX_TIME_MS ? new Date(ms) : null;
  }
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, , , offset] = match;
  if (hour !== undefined && offset === undefined) return null;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCFullYear() !== Number(year) || calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day))
    return null;
  const ms = Date.parse(hour === undefined ? `${year}-${month}-${day}T00:00:00Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : new Date(ms);
}
