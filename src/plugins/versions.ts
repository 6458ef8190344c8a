import semver from 'semver';

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

/** Highest first by SemVer precedence (build metadata ignored, as SemVer says). */
export function bySemverDescending<T extends { version: string }>(a: T, b: T): number {
  return semver.rcompare(versionKey(a.version), versionKey(b.version));
}
