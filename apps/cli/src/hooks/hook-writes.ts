import { type HookContext } from './hook-context';
import { queueWrite } from './hook-offline';
import { type HookWrite, reasonOf, sendWrite, worthQueueing } from './hook-write-calls';

export type WriteOutcome =
  | { readonly status: 'sent'; readonly answer: unknown }
  | { readonly status: 'queued'; readonly reason: string }
  | { readonly status: 'failed'; readonly reason: string };

/**
 * The one way a hook writes: send now, or, when the server is away, slow or refuses the token
 * (a token can be renewed; the write stays valid), queue it to be sent later
 * (hook-offline.ts). A write the server rejects for good (400, 403, 404, 413, 422) is not queued:
 * it would be rejected again; the outcome says why. Never throws.
 */
export async function sendOrQueue(ctx: HookContext, write: HookWrite, timeoutMs: number): Promise<WriteOutcome> {
  try {
    return { status: 'sent', answer: await sendWrite(ctx.http, ctx.project.slug, write, timeoutMs) };
  } catch (error) {
    const reason = reasonOf(error);
    if (!worthQueueing(error)) return { status: 'failed', reason };
    try {
      await queueWrite(ctx, write);
      return { status: 'queued', reason };
    } catch (queueError) {
      return { status: 'failed', reason: `${reason}; and it could not be queued: ${reasonOf(queueError)}` };
    }
  }
}
