const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const LINKS: readonly [string, string][] = [
  ['/openapi', 'API reference (OpenAPI, try it out)'],
  ['/openapi/json', 'OpenAPI document (JSON)'],
  ['/.well-known/registry-key.json', 'Release-signing key set'],
  ['/api/kinds', 'Plugin kinds'],
  ['/health/live', 'Liveness'],
  ['/health/ready', 'Readiness'],
];

/** A small, self-contained page: no script, no external resource; links are relative to the host used. */
export function renderHomePage(input: { siteName: string; version: string }): string {
  const name = escapeHtml(input.siteName);
  const items = LINKS.map(([href, text]) => `      <li><a href="${href}">${text}</a> <code>${href}</code></li>`).join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${name}</title>
    <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}code{color:#57606a}a{color:#0550ae}</style>
  </head>
  <body>
    <h1>${name}</h1>
    <p>A plugin registry, version ${escapeHtml(input.version)}: signed releases, a public catalogue, CI publishing.</p>
    <ul>
${items}
    </ul>
  </body>
</html>
`;
}
