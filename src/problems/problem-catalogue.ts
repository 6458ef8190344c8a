/** What each problem `type` means and what to do about it: the page its URI resolves to. */
export interface ProblemTypeDescription {
  title: string;
  status: number;
  description: string;
}

/**
 * Every problem code the registry answers with. A problem's `type` is `<BASE_URL>/problems/<code>`,
 * and `GET /problems/<code>` serves the entry (a test keeps this list in step with the code).
 */
export const PROBLEM_CATALOGUE: Readonly<Record<string, ProblemTypeDescription>> = {
  'bad-request': { title: 'Bad Request', status: 400, description: 'The request could not be read. Check the URL, the query and the body against the API description at /openapi.' },
  'validation-failed': { title: 'Bad Request', status: 400, description: 'Fields of the request body or query are wrong. `errors` lists each one with a JSON pointer to it and what it must be.' },
  'invalid-slug': { title: 'Bad Request', status: 400, description: 'The slug in the path can never name a plugin: slugs are 1 to 64 characters, lowercase letters, digits and dashes, starting with a letter.' },
  unauthorized: { title: 'Unauthorized', status: 401, description: 'Send a valid credential: a session (cookie or `Authorization: Bearer <session JWT>`) or, for CI pushes, a publisher token.' },
  'token-unusable': { title: 'Unauthorized', status: 401, description: 'The publisher token was revoked or expired (or its owner disabled) while its push was being ingested; nothing was recorded. Create a new token.' },
  'bad-bootstrap-token': { title: 'Unauthorized', status: 401, description: 'The install wizard needs the bootstrap token the server printed at start (or the configured INIT_TOKEN) as `Authorization: Bearer <token>`.' },
  'oauth-refused': { title: 'Unauthorized', status: 401, description: 'The sign-in was refused or its state did not match (a replayed or expired callback). Start the sign-in again.' },
  'oauth-code-rejected': { title: 'Unauthorized', status: 401, description: 'The forge refused the authorization code (used already, expired or unknown). Start the sign-in again.' },
  'webhook-unverified': { title: 'Unauthorized', status: 401, description: "The release webhook was refused: no plugin is registered for the payload's repository, the plugin has no webhook secret (or one under 32 characters), or the signature (GitHub X-Hub-Signature-256, Gitea X-Gitea-Signature, Forgejo X-Forgejo-Signature: HMAC-SHA256 of the raw body) or GitLab's X-Gitlab-Token does not match it. Nothing was stored." },
  'csrf-check-failed': { title: 'Forbidden', status: 403, description: 'A change made with the session cookie must be sent as JSON (`Content-Type: application/json`), which a cross-site form cannot do. API clients can send the session JWT as a bearer token instead.' },
  forbidden: { title: 'Forbidden', status: 403, description: 'You are signed in, but not allowed to do this: a token scope, the ownership of the plugin, an admin role, or proof of repository control is missing. `detail` says which.' },
  'not-found': { title: 'Not Found', status: 404, description: 'No such resource, or a feature that is turned off.' },
  'method-not-allowed': { title: 'Method Not Allowed', status: 405, description: 'The path exists but not with this method; the `Allow` header lists the methods it has.' },
  conflict: { title: 'Conflict', status: 409, description: 'The change conflicts with the current state.' },
  'version-exists': { title: 'Conflict', status: 409, description: 'This version of the plugin is already published (build metadata does not make a new version). Publish a new version; tags should stay immutable.' },
  'repo-claimed': { title: 'Conflict', status: 409, description: 'The repository is already the anchor of another plugin slug: one repository, one slug.' },
  'slug-taken': { title: 'Conflict', status: 409, description: 'Another push claimed this slug for a different repository a moment ago.' },
  'page-exists': { title: 'Conflict', status: 409, description: 'A page with this slug exists already in this locale. Change it with `PUT /api/admin/pages/<slug>?locale=<locale>`.' },
  'request-not-open': { title: 'Conflict', status: 409, description: 'This wishlist request is fulfilled or closed and takes no more votes. Removing a vote still works.' },
  'webhook-unrecognized': { title: 'Bad Request', status: 400, description: 'The request is not a forge webhook: send it from GitHub, GitLab, Gitea or Forgejo (with their X-*-Event headers) as application/json.' },
  'kind-key-immutable': { title: 'Bad Request', status: 400, description: 'A kind\'s key never changes: send the same key as in the path, or leave it out. To rename, create a new kind and delete the old one.' },
  'kind-exists': { title: 'Conflict', status: 409, description: 'A kind with this key exists already; change it with PUT /api/admin/kinds/<key>.' },
  'extension-fields-invalid': { title: 'Unprocessable Content', status: 422, description: 'Extension field declarations that cannot be used: a key that collides with a manifest field or another declaration, enum values of another type than the field, or maxLength on a field without length. `errors` names each one.' },
  'last-owner': { title: 'Conflict', status: 409, description: 'A plugin must keep at least one owner: add the new owner before removing the last one, or use transfer.' },
  'last-admin': { title: 'Conflict', status: 409, description: 'The change would leave the registry without an enabled admin. Make another user an admin first, then demote or disable this one.' },
  'key-drain-pending': { title: 'Conflict', status: 409, description: 'A displaced signing key is still being drained: the releases it signed are being re-signed with the current key. Rotate again when the drain is done (`pending` says how many are left), or finish it now with `registry keys resign`.' },
  'no-matching-release': { title: 'Not Found', status: 404, description: 'Every release of the plugin was passed over: yanked, a prerelease (ask with prerelease=1), or excluding your runtime. `skipped` lists each one and why.' },
  'no-platform-asset': { title: 'Unprocessable Content', status: 422, description: 'The latest release has no asset for this platform and no universal one. `platforms` lists what it has, by platform key; ask with os and arch for one of them.' },
  'token-limit-reached': { title: 'Conflict', status: 409, description: 'A user may hold at most 50 active publisher tokens. Revoke one you no longer use.' },
  gone: { title: 'Gone', status: 410, description: 'This is closed for good, such as the install wizard once an admin exists.' },
  'payload-too-large': { title: 'Payload Too Large', status: 413, description: 'The request body is over the limit that `detail` states.' },
  'unsupported-media-type': { title: 'Unsupported Media Type', status: 415, description: 'Request bodies are JSON: send them with `Content-Type: application/json`.' },
  invalid: { title: 'Unprocessable Content', status: 422, description: 'The request was read but its content breaks a rule; `errors` lists every violation.' },
  'manifest-invalid': { title: 'Unprocessable Content', status: 422, description: 'The manifest breaks the schema or the registry rules. `errors` lists every violation with a JSON pointer into the manifest. `registry validate` checks a manifest locally first.' },
  'page-render-failed': { title: 'Unprocessable Content', status: 422, description: 'The page markdown could not be rendered within the time and memory a render may take. Simplify the markdown (deeply nested or unclosed constructs) and save again.' },
  'attestation-invalid': { title: 'Unprocessable Content', status: 422, description: 'The attestation bundle is over 64 KiB, nested over 32 levels, holds NUL characters or cannot be written as RFC 8785 JSON.' },
  'asset-mismatch': { title: 'Unprocessable Content', status: 422, description: 'A declared `sha256` or `size` of an asset disagrees with the bytes the registry fetched.' },
  'manifest-asset-missing': { title: 'Unprocessable Content', status: 422, description: 'A release delivery was not ingested: the release has no asset named as a manifest candidate (setting manifest.candidates) and manifest.require_release_asset is 1. Attach the manifest to the release, or ask the operator to set the setting to 0 to read it from the repository at the tag.' },
  'manifest-not-found': { title: 'Unprocessable Content', status: 422, description: 'A release delivery was not ingested: neither a manifest asset nor a manifest file in the repository at the tag was found.' },
  'version-mismatch': { title: 'Unprocessable Content', status: 422, description: "A release delivery was not ingested: the manifest's version is not the release tag (without its leading v). Fix the manifest, re-tag, or replay the delivery after fixing the release's manifest asset." },
  'release-draft': { title: 'Unprocessable Content', status: 422, description: 'The release is a draft on the forge; only published releases are ingested.' },
  'forge-fetch-failed': { title: 'Bad Gateway', status: 502, description: "Reading the release or the manifest through the forge's API failed for good (a refused address, a 4xx answer). `detail` says which URL and why." },
  'delivery-not-failed': { title: 'Conflict', status: 409, description: 'Only a failed delivery can be replayed; this one is queued, processing, succeeded or skipped.' },
  'rate-limited': { title: 'Too Many Requests', status: 429, description: 'Slow down; `Retry-After` says when to try again. Limits are per minute: per IP for reads, webhooks, sign-in and the install wizard, per publisher token for publish (operator settings `ratelimit.*`).' },
  'rate-limit-unavailable': { title: 'Service Unavailable', status: 503, description: 'The shared rate-limit counters (Redis) cannot be reached, and publish, sign-in and the install wizard are never served unmetered. Reads go on. Try again after `Retry-After`.' },
  internal: { title: 'Internal Server Error', status: 500, description: 'The server could not complete the request. It is logged with the request id; nothing was half-written.' },
  'upstream-failed': { title: 'Bad Gateway', status: 502, description: 'Something the registry had to fetch failed.' },
  'asset-fetch-failed': { title: 'Bad Gateway', status: 502, description: 'An asset could not be fetched or hashed. `detail` names the asset and the reason (status, timeout, refused host). Only https is fetched, except hosts the operator lists in FETCH_ALLOW_HOSTS.' },
  'oauth-failed': { title: 'Bad Gateway', status: 502, description: 'The forge could not be reached during sign-in, or failed. Try again later.' },
  unavailable: { title: 'Service Unavailable', status: 503, description: 'A dependency (the database, a forge) is unavailable right now. Try again later.' },
  'forge-unreachable': { title: 'Service Unavailable', status: 503, description: 'The forge could not be asked whether you administer the repository. Try again later.' },
};
