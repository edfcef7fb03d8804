import { isSpecType } from '@modelcontextprotocol/server';

/**
 * The first revision without JSON-RPC batching (2025-06-18 changelog, "Remove support for
 * JSON-RPC batching"). Revisions are dates, so they compare as strings.
 */
const FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';

/**
 * Why a body that parsed as JSON is not one MCP message, or undefined when it is one (or a
 * batch the client's revision still allows). The SDK answers these with -32700 Parse error,
 * but the JSON parsed: JSON-RPC 2.0 §5.1 says an unusable request object is -32600 Invalid
 * Request. Bodies that are not JSON at all stay with the SDK, whose -32700 is right for them.
 *
 * Batches: refused when the request names a revision from 2025-06-18 on. Without an
 * `MCP-Protocol-Version` header the transport specification says to assume 2025-03-26, the
 * one revision that required batching, so such a batch is still served (as the SDK and the
 * Go SDK do); every element must itself be a JSON-RPC message.
 */
export function envelopeProblem(message: unknown, protocolVersion: string | undefined): string | undefined {
  if (Array.isArray(message)) {
    if (protocolVersion !== undefined && protocolVersion >= FIRST_REVISION_WITHOUT_BATCHES) {
      return `Invalid Request: JSON-RPC batches are not part of MCP ${protocolVersion.slice(0, 20)} (removed in ${FIRST_REVISION_WITHOUT_BATCHES}); send one message per request`;
    }
    if (message.length === 0) return 'Invalid Request: an empty batch';
    const index = message.findIndex((element) => !isSpecType.JSONRPCMessage(element));
    return index === -1 ? undefined : `Invalid Request: batch element ${index} is not a JSON-RPC 2.0 message`;
  }
  if (isSpecType.JSONRPCMessage(message)) return undefined;
  return 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 request, notification or response';
}
