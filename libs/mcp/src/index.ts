export { McpModule } from './mcp.module';
export { MCP_PATH } from './http/mcp-http.routes';
export { SERVER_INFO } from './protocol/server-info';
export {
  defineTool,
  McpTool,
  type McpToolHandler,
  type McpToolSpec,
  type ToolAnswer,
  type ToolCall,
} from './tools/mcp-tool';
export { ToolRegistry, type RegisteredTool } from './tools/tool-registry';
export { type JsonSchema, type ToolListingMeta, toolListing } from './tools/schema-compaction';
export {
  McpPrompt,
  type McpPromptHandler,
  McpResource,
  type McpResourceHandler,
  type ResourceContents,
} from './protocol/mcp-resource';
