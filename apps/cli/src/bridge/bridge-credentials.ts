import { type CliContext } from '../cli-context';
import { CliError, ExitCode } from '../cli-error';
import { CairnOAuthProvider } from '../oauth/cairn-oauth-provider';
import { oauthClientSettings } from '../oauth/client-settings';
import { LoopbackCallback } from '../oauth/loopback-callback';
import { OAuthStore } from '../oauth/oauth-store';

/** How the bridge authenticates to the MCP endpoint: a session token, or OAuth. */
export interface BridgeCredentials {
  readonly token?: string;
  readonly authorization?: CairnOAuthProvider;
  /** Stops the loopback redirect's server, if one was started. */
  close(): Promise<void>;
}

/**
 * The session token when one is configured (flag, CAIRN_TOKEN, file, keychain: exactly as
 * before OAuth existed), else the OAuth client and tokens `cairn login --oauth` kept for this
 * endpoint. Without `--oauth` the bridge never opens a browser: when the server wants a new
 * authorization (a revoked or expired grant, more scope) its requests fail with a message saying
 * to run `cairn login --oauth` again. With `--oauth` it listens on a loopback redirect and
 * authorizes in the browser itself whenever that happens, from the first request on.
 */
export async function bridgeCredentials(
  ctx: CliContext,
  mcpUrl: URL,
  options: { oauth: boolean; log: (line: string) => void },
): Promise<BridgeCredentials> {
  const settings = await ctx.settings();
  const none = () => Promise.resolve();
  if (!options.oauth && settings.token) return { token: settings.token.value, close: none };
  const store = new OAuthStore(ctx.paths.configFile, mcpUrl.href, ctx.io.keychain);
  if (!options.oauth && !(await store.exists())) {
    throw new CliError(
      `No session token or OAuth login for ${mcpUrl.href}`,
      ExitCode.notConfigured,
      'Run `cairn login --oauth --url …` (or `cairn login --token …`), set CAIRN_TOKEN, or start the bridge with --oauth.',
    );
  }
  const loopback = options.oauth ? await LoopbackCallback.listen() : undefined;
  const authorization = await CairnOAuthProvider.open(store, {
    interactive: options.oauth,
    loopback,
    env: ctx.io.env,
    log: options.log,
    softwareVersion: ctx.version,
    ...oauthClientSettings(ctx.io.env),
  });
  return { authorization, close: () => loopback?.close() ?? Promise.resolve() };
}
