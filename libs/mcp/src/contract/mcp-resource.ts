import { SetMetadata } from '@nestjs/common';
import { type Permission, type SessionPrincipal } from '@cairn/access';

/** A read-only view an agent can attach as context, addressed by a `cairn://` URI. */
export interface McpResourceSpec {
  readonly name: string;
  readonly title: string;
  /** RFC 6570 level-1 template, e.g. `cairn://memories/{id}`. */
  readonly uriTemplate: string;
  readonly description: string;
  readonly mimeType: string;
  readonly permission: Permission;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType: string;
  readonly text: string;
}

export interface McpResourceHandler {
  /** Concrete resources to advertise in `resources/list` (may be none). */
  list(principal: SessionPrincipal): Promise<{ uri: string; name: string; title?: string }[]>;
  /** Reads one resource; `params` are the template's variables, already matched. */
  read(params: Record<string, string>, principal: SessionPrincipal): Promise<ResourceContents>;
}

export const MCP_RESOURCE = 'cairn:mcp-resource';
export const McpResource = (spec: McpResourceSpec): ClassDecorator => SetMetadata(MCP_RESOURCE, spec);

/** A prompt template a client can offer its user (e.g. as a slash command). */
export interface McpPromptSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly { name: string; description: string; required: boolean }[];
}

export interface McpPromptHandler {
  render(args: Record<string, string>, principal: SessionPrincipal): { description: string; text: string };
}

export const MCP_PROMPT = 'cairn:mcp-prompt';
export const McpPrompt = (spec: McpPromptSpec): ClassDecorator => SetMetadata(MCP_PROMPT, spec);
