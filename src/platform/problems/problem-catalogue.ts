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
  'bad-request': {
    title: 'Bad Request',
    status: 400,
    description: 'The request could not be read. Check the URL, the query and the body against the API description at /openapi.',
  },
  'malformed-path': {
    title: 'Bad Request',
    status: 400,
    description:
      'The URL path has a percent-escape that does not spell UTF-8 text (such as %FF, a lone %, or an overlong form), or an encoded NUL. Escape each byte of the UTF-8 encoding: %C3%A9 for é.',
  },
  'validation-failed': {
    title: 'Bad Request',
    status: 400,
    description: 'Fields of the request body or query are wrong. `errors` lists each one with a JSON pointer to it and what it must be.',
  },
  'cursor-ahead': {
    title: 'Bad Request',
    status: 400,
    description:
      "The changes feed's `since` is past its newest change. Cursors only grow, so this one is another registry's, or the registry's database was restored to an earlier point: read the feed again from the beginning (no `since`).",
  },
  'invalid-slug': {
    title: 'Bad Request',
    status: 400,
    description:
      'The slug in the path can never name a plugin: slugs are 1 to 64 characters, lowercase letters, digits and dashes, starting with a letter.',
  },
  unauthorized: {
    title: 'Unauthorized',
    status: 401,
    description:
      'Send a valid credential: a session (cookie or `Authorization: Bearer <session JWT>`) or, for CI pushes, a publisher token.',
  },
  'token-unusable': {
    title: 'Unauthorized',
    status: 401,
    description:
      'The publisher token was revoked or expired (or its owner disabled) while its push was being ingested; nothing was recorded. Create a new token.',
  },
  'oidc-token-invalid': {
    title: 'Unauthorized',
    status: 401,
    description:
      "The CI OIDC ID token was refused: its issuer is not the oidcIssuer of a configured forge instance, its signature does not verify with a key of the issuer's JWKS under an asymmetric algorithm, its audience is not this registry (BASE_URL unless OIDC_AUDIENCE is set), it is expired or not yet valid, or it lacks jti. `detail` says which. Nothing was stored.",
  },
  'oidc-token-replayed': {
    title: 'Unauthorized',
    status: 401,
    description: 'This OIDC ID token was exchanged already; each one is good for a single exchange. Request a fresh ID token from the CI.',
  },
  'bad-bootstrap-token': {
    title: 'Unauthorized',
    status: 401,
    description:
      'The install wizard needs the bootstrap token the server printed at start (or the configured INIT_TOKEN) as `Authorization: Bearer <token>`.',
  },
  'oauth-refused': {
    title: 'Unauthorized',
    status: 401,
    description: 'The sign-in was refused or its state did not match (a replayed or expired callback). Start the sign-in again.',
  },
  'oauth-code-rejected': {
    title: 'Unauthorized',
    status: 401,
    description: 'The forge refused the authorization code (used already, expired or unknown). Start the sign-in again.',
  },
  'webhook-unverified': {
    title: 'Unauthorized',
    status: 401,
    description:
      "The release webhook was refused: no plugin is registered for the payload's repository, the plugin has no webhook secret (or one under 32 characters), or the signature (GitHub X-Hub-Signature-256, Gitea X-Gitea-Signature, Forgejo X-Forgejo-Signature: HMAC-SHA256 of the raw body) or GitLab's X-Gitlab-Token does not match it. Nothing was stored.",
  },
  'webhook-unrecognized': {
    title: 'Unauthorized',
    status: 401,
    description:
      'The request carries none of the forge webhook headers, so there is no signature or token to verify: send it from GitHub, GitLab, Gitea or Forgejo (with their X-*-Event headers) as application/json. Nothing was stored.',
  },
  'sign-in-failed': {
    title: 'Unauthorized',
    status: 401,
    description:
      'The login or the password is wrong. The same answer is given when the account is locked for a while after too many failed attempts (setting ratelimit.signin_failures_per_account, 15 minutes) or disabled, so nobody learns which logins exist. Sign in with a passkey, or ask the operator for a sign-in link (`registry users sign-in-link <login>`).',
  },
  'passkey-rejected': {
    title: 'Unauthorized',
    status: 401,
    description:
      'The passkey was not accepted: it is not registered here (or was removed), the challenge was not issued by this registry or was answered already or expired (5 minutes), or the signature does not verify. Start the sign-in again.',
  },
  'passkey-registration-failed': {
    title: 'Bad Request',
    status: 400,
    description:
      'The passkey could not be registered: the answer does not match a registration you started in the last 5 minutes, or its attestation does not verify for this site (BASE_URL). Start again.',
  },
  'subscription-limit-reached': {
    title: 'Conflict',
    status: 409,
    description:
      'An account may have at most 25 webhook subscriptions. Delete one (DELETE /api/account/subscriptions/{id}) before adding another.',
  },
  'subscription-enabled': {
    title: 'Conflict',
    status: 409,
    description: 'Only a disabled webhook subscription can be enabled; this one is already active.',
  },
  'delivery-not-finished': {
    title: 'Conflict',
    status: 409,
    description:
      'Only a delivery that succeeded or failed for good can be replayed; this one is still queued or being sent, and will be tried again on its own.',
  },
  'signing-secret-unreadable': {
    title: 'Conflict',
    status: 409,
    description:
      "The webhook subscription's signing secret cannot be opened with the registry's current KEY_ENCRYPTION_KEY (it was changed). Delete the subscription and create it again to get a new secret.",
  },
  'passkey-exists': { title: 'Conflict', status: 409, description: 'This passkey is registered already.' },
  'no-passkey': {
    title: 'Conflict',
    status: 409,
    description:
      'A step-up with a passkey needs a passkey registered on the account. Step up with the current password instead, or sign in again (a new session counts as verified for 10 minutes).',
  },
  'passkey-limit-reached': {
    title: 'Conflict',
    status: 409,
    description: 'A user may register at most 20 passkeys. Remove one you no longer use.',
  },
  'password-sign-in-off': {
    title: 'Not Found',
    status: 404,
    description:
      'The operator turned password sign-in off (setting signin.password_enabled). Sign in with a passkey or a one-time sign-in link.',
  },
  'password-not-local': {
    title: 'Conflict',
    status: 409,
    description:
      'Passwords are for local accounts (made with `registry users create` or the install wizard); an account from a forge signs in there, or adds a passkey.',
  },
  'sign-in-link-used': {
    title: 'Gone',
    status: 410,
    description:
      'This sign-in link was used already: each link signs in once. Ask the operator for a new one (`registry users sign-in-link <login>`).',
  },
  'sign-in-link-expired': {
    title: 'Gone',
    status: 410,
    description:
      'This sign-in link has expired (links work for 15 minutes), or its account is disabled. Ask the operator for a new one (`registry users sign-in-link <login>`).',
  },
  'sign-in-link-unknown': {
    title: 'Not Found',
    status: 404,
    description:
      'This sign-in link is not known here: mistyped, cut short, or expired more than a day ago. Ask the operator for a new one (`registry users sign-in-link <login>`).',
  },
  'origin-check-failed': {
    title: 'Forbidden',
    status: 403,
    description:
      "A sign-in form is accepted only from this registry's own pages: its Origin must be BASE_URL's. Sign in from the registry's /sign-in page, or send JSON.",
  },
  'step-up-required': {
    title: 'Forbidden',
    status: 403,
    description:
      'This changes how the account signs in (setting or removing the password, adding or removing a passkey, creating a publisher token), so the session must have proved who holds it in the last 10 minutes: by signing in, or by a step-up, `POST /api/auth/me/step-up` with a passkey (options from `POST /api/auth/me/step-up/options`) or the current password (`currentPassword`). Changing the password may also give `currentPassword` with the change itself. Then repeat the request.',
  },
  'step-up-failed': {
    title: 'Forbidden',
    status: 403,
    description:
      'The passkey of a step-up was not accepted: it is not one of your passkeys, the challenge was not made for you by `POST /api/auth/me/step-up/options` (or was answered already, or is over 5 minutes old), or the signature does not verify. Start again.',
  },
  'current-password-wrong': {
    title: 'Forbidden',
    status: 403,
    description:
      'The current password given is wrong (or the account has none). Wrong ones count as failed sign-ins of the account (setting ratelimit.signin_failures_per_account); past that limit the account is locked for the rest of the 15 minutes (account-locked).',
  },
  'csrf-check-failed': {
    title: 'Forbidden',
    status: 403,
    description:
      'A change made with the session cookie must be sent as JSON (`Content-Type: application/json`), which a cross-site form cannot do. API clients can send the session JWT as a bearer token instead.',
  },
  'no-trusted-publisher': {
    title: 'Forbidden',
    status: 403,
    description:
      'The ID token is valid, but no trusted publisher of a plugin (and no pending publisher) matches its repository (id and path), workflow, ref and environment. An owner adds one with POST /api/plugins/<slug>/trusted-publishers; `detail` lists what the token carries.',
  },
  'image-signature-invalid': {
    title: 'Forbidden',
    status: 403,
    description:
      'The image proxy fetches only the images a rendered README named: its `sig` parameter must be the HMAC the registry wrote beside the `url`. Use the address as it appears in the README HTML, unchanged.',
  },
  'admin-deprecation': {
    title: 'Forbidden',
    status: 403,
    description:
      "An admin who does not own the plugin deprecated it, so its owners may neither undo nor rewrite that deprecation; ask an admin (the refusal is audited as plugin.deprecate_denied). A deprecation set by an admin who is also an owner is the owners' to change.",
  },
  forbidden: {
    title: 'Forbidden',
    status: 403,
    description:
      'You are signed in, but not allowed to do this: a token scope, the ownership of the plugin, an admin role, or proof of repository control is missing. `detail` says which.',
  },
  'not-found': { title: 'Not Found', status: 404, description: 'No such resource, or a feature that is turned off.' },
  'method-not-allowed': {
    title: 'Method Not Allowed',
    status: 405,
    description: 'The path exists but not with this method; the `Allow` header lists the methods it has.',
  },
  conflict: { title: 'Conflict', status: 409, description: 'The change conflicts with the current state.' },
  'version-exists': {
    title: 'Conflict',
    status: 409,
    description:
      'This version of the plugin is already published (build metadata does not make a new version). Publish a new version; tags should stay immutable. The `release` member names the release that is there (`version`, `manifestSha256`, `publishedAt`): a retry after a 503 can tell whether it is its own.',
  },
  'repo-claimed': {
    title: 'Conflict',
    status: 409,
    description: 'The repository is already the anchor of another plugin slug: one repository, one slug.',
  },
  'slug-taken': { title: 'Conflict', status: 409, description: 'Another push claimed this slug for a different repository a moment ago.' },
  'page-exists': {
    title: 'Conflict',
    status: 409,
    description: 'A page with this slug exists already in this locale. Change it with `PUT /api/admin/pages/<slug>?locale=<locale>`.',
  },
  'request-not-open': {
    title: 'Conflict',
    status: 409,
    description: 'This wishlist request is fulfilled or closed and takes no more votes. Removing a vote still works.',
  },
  'kind-key-immutable': {
    title: 'Bad Request',
    status: 400,
    description:
      "A kind's key never changes: send the same key as in the path, or leave it out. To rename, create a new kind and delete the old one.",
  },
  'kind-exists': {
    title: 'Conflict',
    status: 409,
    description: 'A kind with this key exists already; change it with PUT /api/admin/kinds/<key>.',
  },
  'invalid-replacement': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      "A deprecated plugin's `replacement` must name another existing plugin, and not one that is itself deprecated in favour of this plugin (the two would point at each other). `errors` names the field.",
  },
  'extension-fields-invalid': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'Extension field declarations that cannot be used: a key that collides with a manifest field or another declaration, enum values of another type than the field, or maxLength on a field without length. `errors` names each one.',
  },
  'last-owner': {
    title: 'Conflict',
    status: 409,
    description: 'A plugin must keep at least one owner: add the new owner before removing the last one, or use transfer.',
  },
  'last-admin': {
    title: 'Conflict',
    status: 409,
    description:
      'The change would leave the registry without an enabled admin. Make another user an admin first, then demote or disable this one.',
  },
  'no-matching-release': {
    title: 'Not Found',
    status: 404,
    description:
      'Every release of the plugin was passed over: yanked, a prerelease (ask with prerelease=1), or excluding your runtime. `skipped` lists each one and why.',
  },
  'no-platform-asset': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'The latest release has no asset for this platform and no universal one. `platforms` lists what it has, by platform key; ask with os and arch for one of them.',
  },
  'pending-publisher-exists': {
    title: 'Conflict',
    status: 409,
    description:
      "Another pending publisher already holds this slug or this repository: one pending claim per slug and per repository. Remove yours (DELETE /api/auth/me/pending-publishers/<id>) or pick another slug. A repository held by another user's registration made without proof of control is taken over by a registration with that proof (sign in with the repository's forge as one of its admins); `detail` says which case this is.",
  },
  'token-limit-reached': {
    title: 'Conflict',
    status: 409,
    description: 'A user may hold at most 50 active publisher tokens. Revoke one you no longer use.',
  },
  gone: { title: 'Gone', status: 410, description: 'This is closed for good, such as the install wizard once an admin exists.' },
  'payload-too-large': { title: 'Payload Too Large', status: 413, description: 'The request body is over the limit that `detail` states.' },
  'unsupported-media-type': {
    title: 'Unsupported Media Type',
    status: 415,
    description: 'Request bodies are JSON: send them with `Content-Type: application/json`.',
  },
  invalid: {
    title: 'Unprocessable Content',
    status: 422,
    description: 'The request was read but its content breaks a rule; `errors` lists every violation.',
  },
  'image-refused': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'What the image address serves is not a picture the registry shows: it is not PNG, JPEG, GIF, WebP or AVIF by its bytes (SVG is refused), it does not decode, or it has more than 24 megapixels.',
  },
  'manifest-invalid': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'The manifest breaks the schema or the registry rules. `errors` lists every violation with a JSON pointer into the manifest. `registry validate` checks a manifest locally first.',
  },
  'page-render-failed': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'The page markdown could not be rendered within the time and memory a render may take. Simplify the markdown (deeply nested or unclosed constructs) and save again.',
  },
  'attestation-invalid': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'The attestation bundle is over 64 KiB, nested over 32 levels, holds NUL characters or cannot be written as RFC 8785 JSON.',
  },
  'provenance-invalid': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      "The attestation is a Sigstore bundle and it did not verify; `check` names the check that failed: `bundle` (not a valid bundle), `statement` (not a DSSE in-toto statement), `trusted-root` (the certificate or key does not chain to a configured trusted root at the signing time), `timestamp` (no trusted time, or a timestamp that does not cover the signature), `tlog` (a missing or bad transparency log entry), `signature`, `certificate-identity` (the certificate is not a CI workflow of the plugin's repository), `certificate-workflow` (not the trusted publisher's workflow) or `subject-digest` (an asset's SHA-256 is not a subject of the statement). Nothing was recorded.",
  },
  'provenance-required': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      "The plugin's kind requires verified provenance and the release has no Sigstore bundle as its attestation. Attest the build in CI (e.g. actions/attest-build-provenance) and send the bundle as `attestation`. Nothing was recorded.",
  },
  'repository-id-mismatch': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      "The request named the repository's id, and the forge says the repository has another one. The registry reads the id from the forge itself: leave repositoryId out.",
  },
  'repository-not-found': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      "The forge has no such repository, or does not show it to the registry (a private repository is read with the forge instance's `token` in FORGES, or with your own account when registering with proof of control). Nothing was registered.",
  },
  'asset-mismatch': {
    title: 'Unprocessable Content',
    status: 422,
    description: 'A declared `sha256` or `size` of an asset disagrees with the bytes the registry fetched.',
  },
  'manifest-asset-missing': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'A release delivery was not ingested: the release has no asset named as a manifest candidate (setting manifest.candidates) and manifest.require_release_asset is 1. Attach the manifest to the release, or ask the operator to set the setting to 0 to read it from the repository at the tag.',
  },
  'manifest-not-found': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      'Neither a manifest asset on the release nor a manifest file in the repository at the tag was found (a release delivery, or an admin refreshing a manifest).',
  },
  'version-mismatch': {
    title: 'Unprocessable Content',
    status: 422,
    description:
      "A release delivery was not ingested: the manifest's version is not the release tag (without its leading v). Fix the manifest, re-tag, or replay the delivery after fixing the release's manifest asset.",
  },
  'release-draft': {
    title: 'Unprocessable Content',
    status: 422,
    description: 'The release is a draft on the forge; only published releases are ingested.',
  },
  'forge-fetch-failed': {
    title: 'Bad Gateway',
    status: 502,
    description:
      "Reading the release, the manifest or a repository's record through the forge's API failed for good (a refused address, an error answer, a timeout). `detail` says which URL and why; nothing was written.",
  },
  'no-release': {
    title: 'Conflict',
    status: 409,
    description: 'The plugin has no live release, so there is no tag to read its manifest at.',
  },
  'repository-not-on-forge': {
    title: 'Conflict',
    status: 409,
    description: "The plugin's repository is not on a forge instance configured in FORGES, so the registry cannot read it.",
  },
  'release-changed': {
    title: 'Conflict',
    status: 409,
    description: 'The release the manifest was read for was deleted while it was being read. Try again.',
  },
  'delivery-not-failed': {
    title: 'Conflict',
    status: 409,
    description: 'Only a failed delivery can be replayed; this one is queued, processing, succeeded or skipped.',
  },
  'rate-limited': {
    title: 'Too Many Requests',
    status: 429,
    description:
      "Slow down; `Retry-After` (and `retryAfter` in the body) says when to try again. Per IP: reads, webhooks, sign-in and the install wizard, and publish requests whose token has not verified. Per verified publisher token: publish. Per user: wishlist requests, votes and submissions. Per account and per IP: password changes and step-ups with the current password. Per plugin: a reconcile's cooldown. Operator settings `ratelimit.*`.",
  },
  'ingest-busy': {
    title: 'Too Many Requests',
    status: 429,
    description:
      'This instance is already ingesting as many pushes as it runs at once, in all or for your user (settings `ingest.max_concurrent`, `ingest.max_concurrent_per_user`). Nothing was recorded; push again after `Retry-After` seconds (`retryAfter` in the body).',
  },
  'account-locked': {
    title: 'Too Many Requests',
    status: 429,
    description:
      'Too many wrong passwords were tried for your account (setting ratelimit.signin_failures_per_account, 15 minutes), so changing the password or confirming it with the current one is refused, before any password is checked, until `Retry-After`. Meanwhile a passkey step-up works.',
  },
  'rate-limit-unavailable': {
    title: 'Service Unavailable',
    status: 503,
    description:
      'The shared rate-limit counters (Redis) cannot be reached, and publish, sign-in, the install wizard and signed-in actions (wishlist, submit, reconcile) are never served unmetered. Reads go on. Try again after `Retry-After`.',
  },
  internal: {
    title: 'Internal Server Error',
    status: 500,
    description: 'The server could not complete the request. It is logged with the request id; nothing was half-written.',
  },
  'upstream-failed': { title: 'Bad Gateway', status: 502, description: 'Something the registry had to fetch failed.' },
  'upstream-log-failed': {
    title: 'Bad Gateway',
    status: 502,
    description:
      "This registry is a mirror (MIRROR_OF) and serves its upstream's transparency log read-only, and upstream could not be read: it refused the connection, answered with a server error, or sent more than a log answer can be. `detail` says which and `upstream` names the registry; the releases served here are logged there. Try again later, or ask upstream directly.",
  },
  'upstream-log-timeout': {
    title: 'Gateway Timeout',
    status: 504,
    description:
      "This registry is a mirror (MIRROR_OF) and serves its upstream's transparency log read-only, and upstream did not answer within MIRROR_LOG_TIMEOUT_MS. `upstream` names the registry. Try again later, or ask upstream directly.",
  },
  'image-fetch-failed': {
    title: 'Bad Gateway',
    status: 502,
    description:
      'The image proxy could not fetch the image a README names: a status, a timeout, larger than the `images.max_bytes` setting or 5 MiB (whichever is less), or an address the registry does not fetch from. `detail` says only that the image could not be fetched: the reason, which could tell how names resolve inside the registry network, goes to the server log. Only https and public addresses are fetched, except hosts the operator lists in IMAGE_PROXY_ALLOW_HOSTS (FETCH_ALLOW_HOSTS does not apply to the proxy). The failure is remembered for 10 minutes: the same answer is given without fetching again.',
  },
  'asset-fetch-failed': {
    title: 'Bad Gateway',
    status: 502,
    description:
      'An asset could not be fetched or hashed. `detail` names the asset and the reason (status, timeout, refused host). Only https is fetched, except hosts the operator lists in FETCH_ALLOW_HOSTS.',
  },
  'oidc-issuer-unreachable': {
    title: 'Bad Gateway',
    status: 502,
    description:
      "The OIDC issuer's discovery document or key set could not be read (a timeout or an error answer). Nothing was stored; try again.",
  },
  'oauth-failed': {
    title: 'Bad Gateway',
    status: 502,
    description: 'The forge could not be reached during sign-in, or failed. Try again later.',
  },
  'image-proxy-busy': {
    title: 'Service Unavailable',
    status: 503,
    description:
      'The image proxy is already fetching as many README images as one instance fetches at once (4), and as many more are waiting (32). Nothing was fetched; load the image again after `Retry-After` seconds (`retryAfter` in the body).',
  },
  'password-hashing-busy': {
    title: 'Service Unavailable',
    status: 503,
    description:
      'This server is already computing as many password hashes as it allows at once (PASSWORD_HASH_CONCURRENCY; each takes 32 MiB and a tenth of a second), so the password sign-in, change or step-up was refused at once rather than queued. Nothing was changed, and a refused sign-in counted nothing (a change or step-up passed the hourly password-check limit first and counts there); try again after `Retry-After`.',
  },
  'database-unavailable': {
    title: 'Service Unavailable',
    status: 503,
    description:
      'The database cannot be reached right now (it is restarting, or down). Nothing was half-written; try again after `Retry-After`.',
  },
  'client-disconnected': {
    title: 'Bad Request',
    status: 400,
    description:
      'The client closed the connection before a push finished, so the push was abandoned: its downloads were cancelled and nothing was recorded. Nobody is left to read this answer; it exists for the access log.',
  },
  'read-only-mirror': {
    title: 'Service Unavailable',
    status: 503,
    description:
      "This instance is a read-only mirror of another registry (MIRROR_OF): it copies that registry's catalogue and takes no catalogue writes (publish, yank, delete, submit, release webhooks, admin plugin and kind changes). `upstream` in the body is the registry to send them to.",
  },
  unavailable: {
    title: 'Service Unavailable',
    status: 503,
    description: 'A dependency (the database, a forge) is unavailable right now. Try again later.',
  },
  'forge-unreachable': {
    title: 'Service Unavailable',
    status: 503,
    description: 'The forge could not be asked whether you administer the repository. Try again later.',
  },
  'forge-exists': {
    title: 'Conflict',
    status: 409,
    description:
      'A forge instance with this name or web address already exists (configured in `FORGES` or added by an admin), or the name is given twice in one request. Nothing was stored.',
  },
  'forge-name-bound': {
    title: 'Conflict',
    status: 409,
    description:
      "Accounts signed in through a forge instance of this name when it stood for another web address (or it is a built-in instance with another web address): the name can only come back for that address, or the new server's users would take those accounts over. Pick another name. Nothing was stored.",
  },
  'forge-configured': {
    title: 'Conflict',
    status: 409,
    description:
      'The forge instance comes from the `FORGES` configuration or is built in, so it cannot be removed here; change the configuration instead.',
  },
  'forge-url-refused': {
    title: 'Bad Request',
    status: 400,
    description:
      "A forge instance's web or API address is not allowed: not http(s), carrying credentials, a query or a fragment, or resolving to an address the fetch policy refuses. `errors` names each field. Nothing was stored.",
  },
};
