import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line and error body of a request carries. */
export interface RequestContextData {
  readonly correlationId: string;
  readonly tenantId?: string;
  /**
   * What the request did, for its one completion log line (the MCP gateway puts the tool,
   * project and outcome here, so a call costs one log line, not two).
   */
  readonly completion?: Record<string, unknown>;
}

const storage = new AsyncLocalStorage<RequestContextData>();

/** Correlation data for the current request or job, carried through async calls. */
export const RequestContext = {
  run<T>(data: RequestContextData, fn: () => T): T {
    return storage.run(data, fn);
  },
  current(): RequestContextData | undefined {
    return storage.getStore();
  },
};

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** Accepts a caller's `x-request-id` only when it is a sane token, so logs cannot be forged. */
export function correlationIdFrom(header: string | string[] | undefined, fallback: () => string): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID_PATTERN.test(value) ? value : fallback();
}
