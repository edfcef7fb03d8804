export { McpModule } from './mcp.module';
export { McpHttpModule } from './http/mcp-http.module';
export { MCP_PATH } from './http/mcp-http-routes.service';
export { SERVER_INFO } from './server-info';
export { ProtocolError } from './json-rpc-errors';
export {
  defineTool,
  McpTool,
  type McpToolHandler,
  type McpToolSpec,
  type ProjectToolCall,
  type SessionToolCall,
  type ToolAnswer,
  type ToolCall,
  type ToolScope,
} from './contract/mcp-tool';
export { ToolRegistry, type RegisteredTool } from './tool.registry';
export { type JsonSchema, type ToolListingMeta, toolListing } from './schema-compaction';
export {
  McpPrompt,
  type McpPromptHandler,
  McpResource,
  type McpResourceHandler,
  type ResourceContents,
} from './contract/mcp-resource';
