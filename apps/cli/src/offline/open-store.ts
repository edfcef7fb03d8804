import { errorFromResponse } from '../api/api-errors';
import { type CliContext } from '../cli-context';
import { requireToken, requireUrl } from '../settings/settings';
import { openOfflineStore, type OfflineStore } from './offline-store';
import { queueMaxOf } from './write-queue.repository';

export interface OpenStoreForOptions {
  /** Ask the server who the token is even when the cache knows it (the bridge at start). */
  readonly refresh?: boolean;
  /** Deadline of that question; a hook passes what is left of its budget. */
  readonly whoamiTimeoutMs?: number;
}

/**
 * The offline store of the identity a command runs as: server and token from its settings
 * (flags, environment, config file), the file under its cache directory, the queue cap from
 * CAIRN_QUEUE_MAX. Throws UnknownIdentityError for a token never seen online while the server
 * is away, and CliError(notConfigured) without a server or token.
 */
export async function openStoreFor(ctx: CliContext, options: OpenStoreForOptions = {}): Promise<OfflineStore> {
  const settings = await ctx.settings();
  const server = requireUrl(settings);
  const token = requireToken(settings);
  return openOfflineStore({
    cacheDir: ctx.paths.cacheDir,
    server,
    token,
    refresh: options.refresh,
    queueMax: queueMaxOf(ctx.io.env.CAIRN_QUEUE_MAX),
    whoami: async () => {
      const { data, error, response } = await ctx
        .client(server, token, options.whoamiTimeoutMs ?? 5_000)
        .GET('/v1/whoami');
      if (!response.ok || !data) throw errorFromResponse(response, error);
      return data;
    },
  });
}
