import { type Command } from 'commander';
import { type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { syncChangeFeed, type FeedSyncReport } from '../../offline/change-feed';
import { openStoreFor } from '../../offline/open-store';
import { apiTransport } from '../../offline/rest-call';
import { replayQueue } from '../../offline/write-replay';

const SYNC_LOCK_WAIT_MS = 30_000;

/**
 * `cairn sync`: replays the offline write queue in order, then brings the cache of the project
 * up to date from the change feed, and reports both. Exit 7 when the server could not be
 * reached (the queue is kept as it was).
 */
export function registerSync(program: Command, context: ContextFactory): void {
  program
    .command('sync')
    .description('replay the offline write queue and refresh the local cache from the change feed')
    .action(async (_options: unknown, command: Command) => {
      const ctx = context(command);
      const store = await openStoreFor(ctx, { refresh: true });
      try {
        const api = await ctx.api();
        // Another process replaying now (the bridge, a hook) is waited for: its writes go first.
        const replay = await replayQueue(store, apiTransport(api), { waitForLockMs: SYNC_LOCK_WAIT_MS });
        const projects = [ctx.flags.project ?? store.identity.defaultProject].filter((p): p is string => Boolean(p));
        const feeds: FeedSyncReport[] = [];
        if (!replay.stopped) for (const project of projects) feeds.push(await syncChangeFeed(store, api, project));
        const counts = store.queue.counts();
        const result = { writes: replay.writes, queue: counts, stopped: replay.stopped ?? null, feeds };
        ctx.output.result(result, (view) => {
          const lines = view.writes.map(
            (write) =>
              `#${write.seq} ${write.description}: ${write.outcome}${write.reason ? ` (${write.reason})` : ''}`,
          );
          lines.push(
            `Queue: ${view.queue.pending} pending, ${view.queue.conflict} conflict(s), ${view.queue.rejected} rejected` +
              (view.queue.conflict + view.queue.rejected > 0 ? ' (see `cairn queue`)' : ''),
          );
          for (const feed of view.feeds) {
            lines.push(`Cache of ${feed.project}: ${feed.updated} memories updated, ${feed.removed} removed`);
          }
          return lines.join('\n');
        });
        if (replay.stopped?.busy) {
          throw new CliError(
            `Replay not started: ${replay.stopped.reason}`,
            ExitCode.unavailable,
            'It sends the queued writes in order; run `cairn sync` again once it is done.',
          );
        }
        if (replay.stopped) {
          throw new CliError(
            `Replay stopped: ${replay.stopped.reason}`,
            replay.stopped.unavailable ? ExitCode.unavailable : ExitCode.refused,
            'The writes stay queued; run `cairn sync` again when the server answers.',
          );
        }
      } finally {
        store.close();
      }
    });
}
