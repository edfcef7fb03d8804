import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { roleGrants, type SessionPrincipal } from '@cairn/access';
import {
  MCP_PROMPT,
  MCP_RESOURCE,
  type McpPromptHandler,
  type McpPromptSpec,
  type McpResourceHandler,
  type McpResourceSpec,
} from './contract/mcp-resource';

export interface RegisteredResource {
  readonly spec: McpResourceSpec;
  readonly handler: McpResourceHandler;
}
export interface RegisteredPrompt {
  readonly spec: McpPromptSpec;
  readonly handler: McpPromptHandler;
}

/** The `@McpResource` and `@McpPrompt` providers of the application, found at boot. */
@Injectable()
export class McpCatalog implements OnModuleInit {
  private readonly resources: RegisteredResource[] = [];
  private readonly prompts = new Map<string, RegisteredPrompt>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype) continue;
      const resource = Reflect.getMetadata(MCP_RESOURCE, wrapper.metatype) as McpResourceSpec | undefined;
      if (resource) this.resources.push({ spec: resource, handler: wrapper.instance as McpResourceHandler });
      const prompt = Reflect.getMetadata(MCP_PROMPT, wrapper.metatype) as McpPromptSpec | undefined;
      if (prompt) {
        if (this.prompts.has(prompt.name)) throw new Error(`MCP prompt "${prompt.name}" is registered twice`);
        this.prompts.set(prompt.name, { spec: prompt, handler: wrapper.instance as McpPromptHandler });
      }
    }
  }

  resourcesFor(principal: SessionPrincipal): RegisteredResource[] {
    return this.resources.filter((resource) => roleGrants(principal.role, resource.spec.permission));
  }

  promptList(): RegisteredPrompt[] {
    return [...this.prompts.values()];
  }

  prompt(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name);
  }
}
