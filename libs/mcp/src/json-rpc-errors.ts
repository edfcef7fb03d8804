/** JSON-RPC error codes the gateway answers with at the HTTP layer (server-defined range). */
export const GATEWAY_ERROR = {
  unauthorized: -32001,
  /** HTTP 404 for an unknown Mcp-Session-Id, the code the SDK's stateful transport uses. */
  sessionNotFound: -32001,
  forbidden: -32003,
  rateLimited: -32029,
  /** A dependency is down for the moment (HTTP 503 with Retry-After): retry the request. */
  unavailable: -32053,
  methodNotAllowed: -32000,
  internal: -32603,
  parse: -32700,
  invalidRequest: -32600,
} as const;

export interface JsonRpcErrorBody {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: Record<string, unknown> };
}

export function jsonRpcError(
  id: string | number | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): JsonRpcErrorBody {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } };
}

/** The id of a JSON-RPC request body, when it has a usable one. */
export function requestIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A JSON-RPC error for a request handler to throw: the SDK's protocol layer sends its `code`,
 * bare `message` and `data` as they are. Capability libraries throw this rather than an SDK
 * class, so none of them depends on the SDK (or on which of its major versions serves).
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
