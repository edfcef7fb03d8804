import { type Readable, type Writable } from 'node:stream';
import { type CliContext } from '../cli-context';
import { openStoreFor } from '../offline/open-store';
import { type OfflineStore } from '../offline/offline-store';
import { bridgeCredentials } from './bridge-credentials';
import { mcpUrlOf } from './mcp-url';
import { OfflineMode } from './offline-mode';
import { startBridge } from './relay';

export interface RunBridgeOptions {
  /** Seconds between background syncs (queue replay, change feed) while the bridge runs. */
  readonly syncIntervalSeconds: number;
  /** False: a pure relay, no cache and no queue (`--no-offline`). */
  readonly offline: boolean;
  /** How the bridge calls itself on stderr (`cairn mcp`, or `cairn-mcp-stdio` for the alias). */
  readonly name: string;
  /** OAuth, authorizing in the browser when needed (`--oauth`), even when a session token is set. */
  readonly oauth?: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `cairn mcp`: the stdio bridge with its offline layer. The offline layer needs the REST API
 * (who the token is, the change feed, replays); with no REST URL configured the bridge is the
 * plain relay `cairn-mcp-stdio` always was. Runs until stdin ends or SIGINT/SIGTERM.
 */
export async function runBridge(ctx: CliContext, options: RunBridgeOptions): Promise<void> {
  const settings = await ctx.settings();
  const url = mcpUrlOf(settings);
  const log = (line: string) => ctx.io.stderr.write(`${options.name}: ${line}\n`);
  const credentials = await bridgeCredentials(ctx, url, { oauth: options.oauth === true, log });
  if (credentials.token && settings.token?.source === 'flag') {
    log('warning: the token was given with --token and is visible in the process list; prefer CAIRN_TOKEN');
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    log(`warning: sending the token over plain http to ${url.host}; use https outside this machine`);
  }
  let store: OfflineStore | undefined;
  let offline: OfflineMode | undefined;
  if (options.offline && settings.url && !credentials.token) {
    // The cache follows the REST API, which takes session tokens, not the gateway's OAuth tokens.
    log('offline cache off for this session: it needs a session token (OAuth tokens are for the MCP endpoint only)');
  } else if (options.offline && settings.url) {
    try {
      store = await openStoreFor(ctx, { refresh: true, whoamiTimeoutMs: 5_000 });
      offline = new OfflineMode(store, await ctx.api(), { log });
    } catch (error) {
      log(`offline cache off for this session: ${(error as Error).message}`);
    }
  }
  const bridge = await startBridge(ctx.io.stdin as Readable, ctx.io.stdout as Writable, {
    url,
    token: credentials.token,
    authorization: credentials.authorization,
    log,
    interceptor: offline,
  });
  const onSignal = () => void bridge.close();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let timer: NodeJS.Timeout | undefined;
  if (offline) {
    void offline.sync();
    timer = setInterval(() => void offline.sync(), options.syncIntervalSeconds * 1000);
    timer.unref();
  }
  await bridge.closed;
  clearInterval(timer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await offline?.idle();
  store?.close();
  await credentials.close();
}
