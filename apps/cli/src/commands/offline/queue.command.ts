import { type Command, InvalidArgumentError } from 'commander';
import { type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { openStoreFor } from '../../offline/open-store';
import { describeWrite } from '../../offline/write-operations';

interface QueueOptions {
  readonly drop?: number;
  readonly yes?: boolean;
}

/**
 * `cairn queue`: the writes held in the offline queue (pending, conflicting, rejected) with
 * why; `--drop <n> --yes` discards one. Works without the server for a token seen before.
 */
export function registerQueue(program: Command, context: ContextFactory): void {
  program
    .command('queue')
    .description('list the offline write queue: pending writes, conflicts and rejections, with their reasons')
    .option('--drop <n>', 'discard queued write number <n> (needs --yes)', positive)
    .option('--yes', 'confirm --drop')
    .action(async (options: QueueOptions, command: Command) => {
      const ctx = context(command);
      const store = await openStoreFor(ctx);
      try {
        if (options.drop !== undefined) {
          const write = store.queue.get(options.drop);
          if (!write) throw new CliError(`No queued write #${options.drop}`, ExitCode.notFound);
          if (!options.yes) {
            throw new CliError(
              `Not dropped: add --yes to discard #${write.seq} (${describeWrite(write.operation)}); it will never reach the server`,
              ExitCode.usage,
            );
          }
          store.queue.drop(write.seq);
          ctx.output.result({ dropped: write }, () => `Dropped #${write.seq}: ${describeWrite(write.operation)}`);
          return;
        }
        const writes = store.queue.list();
        for (const other of store.otherQueues()) {
          ctx.output.warn(
            `${other.writes} write(s) are queued under another token (${other.identity.tenantSlug}, token ${other.identity.tokenId}); ` +
              'run `cairn sync` with that token to send them',
          );
        }
        ctx.output.result({ writes, counts: store.queue.counts() }, (view) =>
          view.writes.length === 0
            ? 'The offline queue is empty.'
            : ctx.output.table(
                ['#', 'status', 'project', 'write', 'queued', 'reason'],
                view.writes.map((write) => [
                  write.seq,
                  write.status,
                  write.project,
                  describeWrite(write.operation),
                  new Date(write.createdAt).toISOString(),
                  write.reason ?? '',
                ]),
              ),
        );
      } finally {
        store.close();
      }
    });
}

function positive(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('a queue number (see `cairn queue`)');
  return value;
}
