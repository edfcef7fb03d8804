import { PERMISSIONS, ROLES, roleGrants, type SessionPrincipal, TOOLSETS } from '@cairn/access';
import { ToolRegistry } from '@cairn/mcp';
import { McpGatewayModule } from '@cairn/mcp-gateway-app';
import { createTestDatabase, createTestHttpApp, testConfig, type TestDatabase, testRedisUrl } from '@cairn/testing';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';

/** The stable tool contract of DESIGN §7 and issue 5; renaming one breaks every agent config. */
const CONTRACT = [
  'memory_store',
  'memory_recall',
  'memory_list',
  'memory_get',
  'memory_update',
  'memory_delete',
  'memory_history',
  'memory_link',
  'memory_related',
  'memory_verify',
  'remember',
  'forget',
  'recall_context',
  'kb_index',
  'kb_search',
  'kb_search_global',
  'session_summarize',
  'status',
  'memory_stale',
  'memory_duplicates',
  'memory_merge',
  'session_event',
  'file_summary',
  'extract_facts',
];

const principal = (role: (typeof ROLES)[number]): SessionPrincipal => ({
  kind: 'session',
  tokenId: 't',
  tenant: { id: 'x', slug: 'acme', schema: 't_x', name: 'Acme' },
  role,
  userId: null,
  agentId: null,
  projects: '*',
  defaultProject: null,
  toolsets: [...TOOLSETS],
  expiresAt: new Date(Date.now() + 60_000),
});

describe('the gateway tool catalogue', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let registry: ToolRegistry;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), {}, 'mcp-gateway');
    app = await createTestHttpApp(McpGatewayModule.register(config), config);
    registry = app.get(ToolRegistry);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('serves exactly the contracted tool names', () => {
    expect(
      registry
        .all()
        .map((tool) => tool.spec.name)
        .sort(),
    ).toEqual([...CONTRACT].sort());
  });

  it.each(CONTRACT)('%s declares a permission, a toolset, schemas and a description with an example', (name) => {
    const tool = registry.get(name)!;
    const permission = PERMISSIONS[tool.spec.permission];
    expect(['project', 'session']).toContain(permission.scope);
    expect(TOOLSETS).toContain(tool.spec.toolset);
    expect(tool.spec.description.length).toBeGreaterThan(80);
    expect(tool.spec.description).toMatch(/example/i);
    expect(tool.listing.inputSchema).toMatchObject({ type: 'object' });
    expect(tool.listing.outputSchema).toMatchObject({ type: 'object' });
    // Strict input: an agent's misspelt argument is an error, not silently ignored.
    expect(tool.listing.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it.each(ROLES)('shows role %s only tools its permissions grant, and a reader no write tool', (role) => {
    const visible = registry.visibleTo(principal(role));
    for (const tool of visible) expect(roleGrants(role, tool.spec.permission)).toBe(true);
    if (role === 'reader') expect(visible.filter((tool) => !tool.spec.annotations.readOnlyHint)).toEqual([]);
    expect(visible.length).toBeGreaterThan(0);
  });

  it('filters by the toolsets the token enables', () => {
    const coreOnly = registry.visibleTo({ ...principal('admin'), toolsets: ['core'] });
    expect(new Set(coreOnly.map((tool) => tool.spec.toolset))).toEqual(new Set(['core']));
    expect(coreOnly.map((tool) => tool.spec.name)).toContain('status');
  });
});
