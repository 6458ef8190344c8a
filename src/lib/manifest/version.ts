/** Strips one leading "v" from a release tag, so "v1.2.3" and "1.2.3" name the same version. */
export function normalizeVersion(tagOrVersion: string): string {
  return tagOrVersion.startsWith('v') ? tagOrVersion.slice(1) : tagOrVersion;
}
