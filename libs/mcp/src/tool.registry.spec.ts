import { type DiscoveryService } from '@nestjs/core';
import { type CairnConfig } from '@cairn/config';
import { z } from 'zod';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from './contract/mcp-tool';
import { ToolRegistry } from './tool.registry';

const spec = (overrides: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({
    name: 'thing_get',
    title: 'Get a thing',
    toolset: 'core',
    permission: 'memory.read',
    scope: 'project',
    description: 'Gets a thing. Example: {"id": "x"}',
    input: z.object({ id: z.string().max(10) }),
    output: z.object({ id: z.string() }),
    annotations: { readOnlyHint: true },
    ...overrides,
  });
const handler: McpToolHandler = { run: () => Promise.resolve({ structured: { id: 'x' }, text: 'x' }) };

// Only project tools are handed a project: a session tool that expects one does not compile.
const sessionSpec = defineTool({ ...spec(), name: 'thing_count', scope: 'session' });
// @ts-expect-error: a session tool's call carries no project (ToolCall<'session'>.project is null)
@McpTool(sessionSpec)
class _SessionToolExpectingAProject {
  run(_input: unknown, call: ProjectToolCall) {
    return Promise.resolve({ structured: { id: call.project }, text: call.project });
  }
}

const registry = () =>
  new ToolRegistry(
    { getProviders: () => [] } as unknown as DiscoveryService,
    {
      memory: { contentMaxChars: 8_000 },
      knowledge: { documentMaxChars: 500_000 },
    } as CairnConfig,
  );

describe('ToolRegistry', () => {
  it('adds the optional project argument to project tools and refuses unknown arguments', () => {
    const tools = registry();
    tools.add(spec(), handler);
    const tool = tools.get('thing_get')!;
    expect(tool.input.safeParse({ id: 'a', project: 'web-app' }).success).toBe(true);
    expect(tool.input.safeParse({ id: 'a', porject: 'web-app' }).success).toBe(false);
    expect(tool.listing).toMatchObject({
      name: 'thing_get',
      inputSchema: { type: 'object', required: ['id'], additionalProperties: false },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    });
    expect(JSON.stringify(tool.listing)).not.toContain('$schema');
  });

  it('lists the project argument as a bare string and still checks it as a slug', () => {
    const tools = registry();
    tools.add(spec(), handler);
    const tool = tools.get('thing_get')!;
    expect(tool.listing.inputSchema).toMatchObject({ properties: { project: { type: 'string' } } });
    expect((tool.listing.inputSchema as { properties: { project: object } }).properties.project).toEqual({
      type: 'string',
    });
    expect(tool.input.safeParse({ id: 'a', project: 'Not A Slug' }).success).toBe(false);
  });

  it('refuses a duplicate name, a bad name and an unknown permission at boot', () => {
    const tools = registry();
    tools.add(spec(), handler);
    expect(() => tools.add(spec(), handler)).toThrow(/registered twice/);
    expect(() => tools.add(spec({ name: 'Thing-Get' }), handler)).toThrow(/snake_case/);
    expect(() => tools.add(spec({ name: 'thing_x', permission: 'nope' as never }), handler)).toThrow(
      /unknown permission/,
    );
  });

  it('refuses a schema JSON Schema cannot describe', () => {
    const tools = registry();
    const input = z.object({ when: z.date() });
    expect(() => tools.add(spec({ name: 'thing_when', input }), handler)).toThrow();
  });
});
