import { type KoaContextWithOIDC } from 'oidc-provider';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The page a person sees when an authorization request cannot go back to its client (an unknown
 * client, a redirect URI it never registered): what went wrong, in oidc-provider's own words,
 * escaped, and nothing of the request. Self-contained: no script, no outside resource.
 */
export function renderOAuthError(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
  _error: Error,
): void {
  const description = out.error_description ?? '';
  ctx.type = 'html';
  ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cairn: authorization failed</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}</style>
</head><body>
<h1>The application's request could not be completed</h1>
<p><code>${escapeHtml(out.error)}</code>${description ? `: ${escapeHtml(description)}` : ''}</p>
<p>Close this window and try connecting again from the application. If it keeps failing, tell your Cairn administrator what it says above.</p>
</body></html>`;
}
