/** A version as published: one leading `v` dropped. */
export function stripV(version: string): string {
  return version.startsWith('v') ? version.slice(1) : version;
}

/** The identity of a release: build metadata does not make a new version (`1.0.0+a` = `1.0.0+b`). */
export function versionKey(version: string): string {
  const plain = stripV(version);
  const plus = plain.indexOf('+');
  return plus < 0 ? plain : plain.slice(0, plus);
}

export function isPrerelease(version: string): boolean {
  return versionKey(version).includes('-');
}

/** A number as its digit count (2 digits) then its digits: numeric order under byte comparison. */
function numberKey(digits: string): string {
  return String(digits.length).padStart(2, '0') + digits;
}

/**
 * A string whose byte order (`COLLATE "C"`) is SemVer precedence, so "the highest version" is an
 * indexed ORDER BY instead of an in-memory sort. major.minor.patch compare numerically; a release
 * sorts above its prereleases (`~` > `-`); prerelease identifiers compare one by one, numeric ones
 * numerically and below alphanumeric ones, a shorter list first when all shared ones are equal
 * (the space separator is below every identifier character). Build metadata is ignored.
 */
export function versionSortKey(version: string): string {
  const key = versionKey(version);
  const dash = key.indexOf('-');
  const core = dash < 0 ? key : key.slice(0, dash);
  const [major, minor, patch] = core.split('.');
  const head = numberKey(major) + numberKey(minor) + numberKey(patch);
  if (dash < 0) return `${head}~`;
  const identifiers = key
    .slice(dash + 1)
    .split('.')
    .map((id) => (/^[0-9]+$/.test(id) ? `0${numberKey(id)}` : `1${id}`));
  return `${head}-${identifiers.join(' ')}`;
}
