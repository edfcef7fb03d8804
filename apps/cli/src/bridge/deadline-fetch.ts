import { type FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch that gives up when the response headers have not arrived within `timeoutMs` (a
 * server that accepts connections but never answers counts as unreachable), and leaves the
 * body alone once they have: a streamed answer may take as long as its tool does.
 */
export function withHeadersDeadline(inner: FetchLike, timeoutMs: number): FetchLike {
  return async (url, init) => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    try {
      return await inner(url, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
  };
}
