/**
 * What `npm start` prints once the apps answer: where they listen, a line to paste into a shell
 * that reads the admin token from the state dir's secrets.json (the README's examples use
 * `$CAIRN_ADMIN_TOKEN`; the token itself is never printed, so it reaches no captured log), and,
 * only while there is no tenant yet, how to create the first one on the api's actual port.
 */
export interface BannerInput {
  readonly apiPort: number;
  readonly mcpPort: number;
  readonly workerPort: number;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /**
   * Where the admin token is: a shell command printing it from secrets.json (where `npm start`
   * keeps the one it generated), or the environment's CAIRN_ADMIN_TOKEN.
   */
  readonly adminToken: { readonly command: string } | 'environment';
  /** Whether a tenant exists; undefined when that could not be asked (the hint is then shown). */
  readonly tenantsExist: boolean | undefined;
  /** Apps that did not answer /readyz in time (they still run). */
  readonly notReady: readonly string[];
  /** Cairn's OAuth authorization server's issuer, when OAUTH_ENABLED (docs/oauth.md). */
  readonly oauthIssuer?: string;
}

/** Lines without the `[cairn] ` prefix; `paste` lines are meant to be copied as they are. */
export interface BannerLine {
  readonly text: string;
  readonly paste?: boolean;
}

export function bannerLines(input: BannerInput): BannerLine[] {
  const api = `http://127.0.0.1:${input.apiPort}`;
  const lines: BannerLine[] = [
    { text: `api          ${api}  (OpenAPI at /docs)` },
    // localhost, not 127.0.0.1: browsers keep a Secure session cookie on http://localhost only.
    { text: `console      http://localhost:${input.apiPort}/console/  (the web console; sign in there)` },
    { text: `mcp-gateway  http://127.0.0.1:${input.mcpPort}/mcp` },
    { text: `worker       http://127.0.0.1:${input.workerPort}/readyz` },
    ...(input.oauthIssuer
      ? [{ text: `oauth        ${input.oauthIssuer}  (authorization server; people consent in the console)` }]
      : []),
    { text: `database     ${redactPassword(input.databaseUrl)}` },
    { text: `redis        ${redactPassword(input.redisUrl)}` },
  ];
  if (input.adminToken !== 'environment') {
    lines.push(
      { text: 'admin token  kept in secrets.json; for the README examples, run this in your shell:' },
      { text: `export CAIRN_ADMIN_TOKEN=$(${input.adminToken.command})`, paste: true },
    );
  } else {
    lines.push({ text: 'admin token  from CAIRN_ADMIN_TOKEN' });
  }
  if (input.notReady.length > 0) {
    lines.push({ text: `running, but not ready yet: ${input.notReady.join(', ')} (see the logs above)` });
  }
  if (input.tenantsExist !== true) {
    lines.push(
      { text: 'no tenant yet; create the first one (README: "First tenant, user and token"):' },
      {
        text:
          `curl -s -X POST ${api}/v1/tenants -H "Authorization: Bearer $CAIRN_ADMIN_TOKEN" ` +
          `-H 'content-type: application/json' -d '{"slug":"acme","name":"Acme"}'`,
        paste: true,
      },
    );
  }
  return lines;
}

export function redactPassword(url: string | undefined): string {
  if (!url) return '(unset)';
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
