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
  'kb_fetch',
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
  'secret_get',
  'memory_share',
  'memory_unshare',
  'shared_with_me',
  'my_shares',
  'memory_promote',
  'memory_review',
  'review_queue',
  'broadcast_post',
  'broadcast_read',
  'broadcast_ack',
  'broadcast_verify',
  'memory_topics',
  'memory_categories',
  'project_card',
  'project_card_edit',
  'code_search',
  'code_symbol',
  'context_check',
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

  it.each(CONTRACT)('%s: every JSON example in its description is valid input', (name) => {
    const tool = registry.get(name)!;
    const examples = jsonExamples(tool.spec.description);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const parsed = tool.spec.input.safeParse(example);
      // `"<memory id>"` stands for a value the agent has from an earlier answer: only its type is not checked.
      const issues = parsed.success
        ? []
        : parsed.error.issues.filter((issue) => !isPlaceholder(at(example, issue.path)));
      expect({ example, issues }).toEqual({ example, issues: [] });
    }
  });

  it.each(CONTRACT)('%s: a list in its description that names memory categories names only accepted ones', (name) => {
    const tool = registry.get(name)!;
    const accepted = categoryEnum(tool.listing.inputSchema);
    if (!accepted) return;
    // "Store one durable fact, decision, pattern, bug or preference …": prose an agent copies from.
    for (const [list] of tool.spec.description.matchAll(/\b[a-z]+(?:, [a-z]+)+,? (?:or|and) [a-z]+\b/g)) {
      const words = list.split(/,? (?:or|and) |, /);
      if (!words.some((word) => accepted.includes(word))) continue;
      expect({ list, refused: words.filter((word) => !accepted.includes(word)) }).toEqual({ list, refused: [] });
    }
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

/** The JSON objects written after "Example" in a tool description (`Example: {…} then {…}`). */
function jsonExamples(description: string): unknown[] {
  const text = description.slice(Math.max(0, description.search(/example/i)));
  const examples: unknown[] = [];
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = closingBrace(text, start);
    if (end < 0) continue;
    try {
      examples.push(JSON.parse(text.slice(start, end + 1)));
      start = end;
    } catch {
      // prose between braces, not an example
    }
  }
  return examples;
}

/** `<what goes here>`: a placeholder in an example, e.g. `"<memory id>"`. */
function isPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && /^<[^<>]+>$/.test(value);
}

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], value);
}

/** Index of the brace closing the one at `start`, skipping JSON strings; -1 when unbalanced. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}' && (depth -= 1) === 0) return i;
  }
  return -1;
}

/** The accepted values of a `category` / `categories` property anywhere in a JSON schema. */
function categoryEnum(schema: unknown): string[] | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const node = schema as { properties?: Record<string, any>; [key: string]: unknown };
  for (const key of ['category', 'categories']) {
    const property = node.properties?.[key];
    const values: unknown = property?.enum ?? property?.items?.enum;
    if (Array.isArray(values)) return values as string[];
  }
  for (const child of Object.values(node)) {
    const found = categoryEnum(child);
    if (found) return found;
  }
  return undefined;
}
