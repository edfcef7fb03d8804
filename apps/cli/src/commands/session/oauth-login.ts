import { resolveMcpEndpoint } from '../../api/mcp-endpoint';
import { type CliContext } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { CairnOAuthProvider, OAuthLoginRequired, OAuthServerRefused } from '../../oauth/cairn-oauth-provider';
import { oauthClientSettings } from '../../oauth/client-settings';
import { LoopbackCallback } from '../../oauth/loopback-callback';
import { authorizeInteractively, probeChallenge } from '../../oauth/oauth-flow';
import { OAuthStore } from '../../oauth/oauth-store';
import { readConfigFile, writeConfigFile } from '../../settings/config-file';

export interface OAuthLoginOptions {
  readonly keychain?: boolean;
  readonly scope?: string;
}

/**
 * `cairn login --oauth`: authorizes cairn at the authorization server the MCP endpoint names,
 * with the person's browser (RFC 8252: a loopback redirect on 127.0.0.1 and a port of the
 * moment), and keeps the client and the tokens where the session token would be kept. The
 * session token kept for this server, if any, is forgotten: one way of logging in at a time.
 */
export async function loginWithOAuth(ctx: CliContext, options: OAuthLoginOptions): Promise<void> {
  const settings = await ctx.settings();
  if (!settings.mcpUrl && !settings.url) {
    throw new CliError(
      'cairn login --oauth needs --url <server> (or --mcp-url <MCP endpoint>)',
      ExitCode.usage,
      'Example: cairn login --oauth --url https://cairn.example.com',
    );
  }
  const mcpUrl = settings.mcpUrl?.value ?? (await resolveMcpEndpoint(ctx)).url;
  const log = (line: string) => ctx.io.stderr.write(`${line}\n`);
  const loopback = await LoopbackCallback.listen();
  const store = new OAuthStore(ctx.paths.configFile, mcpUrl.href, ctx.io.keychain);
  try {
    const provider = await CairnOAuthProvider.open(store, {
      interactive: true,
      loopback,
      env: ctx.io.env,
      log,
      softwareVersion: ctx.version,
      preferKeychain: options.keychain === true,
      ...oauthClientSettings(ctx.io.env),
    });
    // A login asks the person again, whatever is kept; the registration is reused when it still works.
    await provider.forgetTokens();
    const fetchFn = ctx.io.fetch;
    const challenge = await probeChallenge(mcpUrl, fetchFn).catch((error: unknown) => {
      throw new CliError(`Cannot reach ${mcpUrl.href}: ${(error as Error).message}`, ExitCode.unavailable);
    });
    await authorizeInteractively(
      provider,
      mcpUrl,
      { ...challenge, scope: options.scope ?? challenge.scope },
      fetchFn,
    ).catch((error: unknown) => {
      throw asCliError(error);
    });
    const file = await readConfigFile(ctx.paths.configFile);
    const { token: _dropped, ...rest } = file;
    const storedIn = file.oauth?.inKeychain ? 'keychain' : 'file';
    await writeConfigFile(ctx.paths.configFile, {
      ...rest,
      ...(settings.url && settings.url.source !== 'file' ? { url: settings.url.value.href.replace(/\/+$/, '') } : {}),
      mcpUrl: mcpUrl.href,
    });
    if (settings.url) await ctx.io.keychain?.deleteToken(settings.url.value.href.replace(/\/+$/, ''), 'token');
    if (options.keychain && storedIn === 'file') {
      ctx.output.warn(
        'No usable OS keychain on this machine: the OAuth tokens are kept in the config file (mode 0600).',
      );
    }
    const tokens = provider.tokens();
    ctx.output.result(
      {
        mcpUrl: mcpUrl.href,
        clientId: provider.clientInformation()?.client_id ?? null,
        scope: tokens?.scope ?? null,
        expiresAt: provider.expiresAt ? new Date(provider.expiresAt).toISOString() : null,
        refreshable: Boolean(tokens?.refresh_token),
        tokenStoredIn: storedIn,
        configFile: ctx.paths.configFile,
      },
      (view) =>
        `Authorized cairn for ${view.mcpUrl}${view.scope ? ` (scope ${view.scope})` : ''}.\n` +
        `${view.refreshable ? 'The access token is refreshed as needed' : 'No refresh token: run `cairn login --oauth` again when it expires'}; ` +
        `kept in ${view.tokenStoredIn === 'keychain' ? 'the OS keychain' : view.configFile}. \`cairn mcp\` uses it.`,
    );
  } finally {
    await loopback.close();
  }
}

function asCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof OAuthServerRefused || error instanceof OAuthLoginRequired) {
    return new CliError(error.message, ExitCode.refused);
  }
  return new CliError(`OAuth authorization failed: ${(error as Error).message}`, ExitCode.refused);
}
