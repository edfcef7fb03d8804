import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type z } from 'zod';

const SCHEMAS: Record<string, z.ZodType> = Object.fromEntries(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    CompleteRequestSchema,
    SetLevelRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema]),
);

/**
 * Checks a request's params against the MCP schema of its method before the SDK sees it:
 * the SDK would answer a mismatch with -32603 and a dump of validation internals, where the
 * right answer is -32602 with a short reason. Returns that reason, or undefined when the
 * message is not a request of a known method or its params are fine.
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
  const schema = SCHEMAS[method];
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path || 'request'}: ${issue.message}`;
  });
  return `Invalid params for ${method}: ${issues.join('; ')}`;
}
