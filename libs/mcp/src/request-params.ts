import { type SpecTypeName, specTypeSchemas } from '@modelcontextprotocol/server';

/** The requests of the methods the gateway serves, by method name, as the SDK's own schemas check them. */
const SCHEMAS: Record<string, SpecTypeName> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
};

/**
 * Checks a 2025-era request's params against the MCP schema of its method before the SDK
 * sees it: the SDK's stateless legacy serving would answer a mismatch with -32603 and a dump
 * of validation internals, where the right answer is -32602 with a short reason. Returns that
 * reason, or undefined when the message is not a request of a known method or its params are
 * fine. (2026-07-28 requests are validated by the SDK's own modern validation ladder.)
 */
export function invalidParamsOf(message: unknown): string | undefined {
  if (Array.isArray(message)) {
    // A (pre-2025-06-18) batch: one bad element refuses the batch, naming it.
    for (const [index, element] of message.entries()) {
      const reason = invalidParamsOf(element);
      if (reason) return `batch element ${index}: ${reason}`;
    }
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string' || id === undefined) return undefined;
  const type = SCHEMAS[method];
  if (!type) return undefined;
  const checked = specTypeSchemas[type]['~standard'].validate(message);
  if (!checked.issues) return undefined;
  const issues = checked.issues.slice(0, 3).map((issue) => {
    const path = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.');
    return `${path || 'request'}: ${issue.message}`;
  });
  return `Invalid params for ${method}: ${issues.join('; ')}`;
}
