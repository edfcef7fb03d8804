import { randomInt } from 'node:crypto';
import { connectClient, type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

/**
 * Random and malformed traffic against a listening gateway: broken JSON, wrong JSON-RPC
 * envelopes, batches, hostile tool arguments (wrong types, huge strings, 10k-deep nesting,
 * lone surrogates, NUL, RTL, emoji, long keys). The gateway must answer every one with a
 * status below 500, within a deadline, without leaking internals, and keep serving after.
 *
 * Reproduce a failure with FUZZ_SEED=<seed printed by the run> npx jest <this file>.
 */
// eslint-disable-next-line no-restricted-properties -- knobs of this test run, not app configuration
const { FUZZ_SEED, FUZZ_CASES, FUZZ_VERBOSE } = process.env;
const SEED = Number(FUZZ_SEED ?? randomInt(1, 2 ** 31));
const CASES = Number(FUZZ_CASES ?? 400);
const REQUEST_DEADLINE_MS = 15_000;
const CONCURRENCY = 8;

/** mulberry32: tiny, fast and good enough to pick fuzz cases; the same seed, the same run. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A value nested `levels` deep. Kept as a marker and written out by `toJson`, because
 * JSON.stringify itself overflows the stack on 10k levels inside a jest worker.
 */
class Deep {
  constructor(
    readonly levels: number,
    readonly shape: 'array' | 'object',
  ) {}
}

/** JSON.stringify for fuzz values (shallow except for `Deep` markers). */
function toJson(value: unknown): string {
  if (value instanceof Deep) {
    const [open, close] = value.shape === 'array' ? ['[', ']'] : ['{"k":', '}'];
    return `${open.repeat(value.levels)}"bottom"${close.repeat(value.levels)}`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : toJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface FuzzCase {
  readonly label: string;
  readonly body: string | Uint8Array;
  readonly headers?: Record<string, string>;
}

interface Tool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: string | string[] }> };
}

class Fuzzer {
  private readonly random: () => number;
  constructor(
    seed: number,
    private readonly tools: Tool[],
  ) {
    this.random = prng(seed);
  }

  int(max: number): number {
    return Math.floor(this.random() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Strings a careless parser, database or logger chokes on. */
  string(): string {
    const nasty = [
      '',
      '\u0000',
      `a\u0000b`,
      '\ud800',
      'x\udfffy',
      '\ud83d\ude00\ud83d',
      '\u202eevil\u202c',
      'שלום עולם',
      '👩‍👩‍👧‍👦🏳️‍🌈',
      '\ufeff\ufffe\uffff',
      'e\u0301\u0301\u0301',
      "'; DROP TABLE memories; --",
      '${jndi:ldap://x}',
      '../../etc/passwd',
      '<script>alert(1)</script>',
      '\r\n\r\ninjected: header',
      '%s%n%x',
      ' '.repeat(this.int(64)),
    ];
    switch (this.int(5)) {
      case 0:
        return this.pick(nasty);
      case 1:
        return this.pick(['x', '€', '😀', '\u0000', '\ud800', 'a ']).repeat(this.pick([1_000, 20_000, 120_000]));
      case 2:
        return Array.from({ length: this.int(40) }, () => String.fromCharCode(this.int(0x10000))).join('');
      default:
        return Array.from({ length: 1 + this.int(4) }, () => this.pick(nasty)).join(' ');
    }
  }

  deep(levels: number): Deep {
    return new Deep(levels, this.random() < 0.5 ? 'array' : 'object');
  }

  value(depth = 0): unknown {
    const choice = this.int(depth > 3 ? 9 : 12);
    switch (choice) {
      case 0:
        return null;
      case 1:
        return this.random() < 0.5;
      case 2:
        return this.pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, -0, 1e-320, 123456789012345680000]);
      case 3:
      case 4:
      case 5:
        return this.string();
      case 6:
        return this.int(1_000) - 500;
      case 7:
        return this.deep(this.pick([2, 100, 10_000]));
      case 8:
        return { ['k'.repeat(this.pick([1, 1_000, 50_000]))]: 1 };
      case 9:
        return Array.from({ length: this.int(5) }, () => this.value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: this.int(5) }, () => [this.string(), this.value(depth + 1)]));
    }
  }

  /** Arguments shaped like the tool's schema (right names) with values of any type, or junk. */
  toolArguments(tool: Tool): unknown {
    if (this.random() < 0.15) return this.value();
    const names = Object.keys(tool.inputSchema.properties ?? {});
    const args: Record<string, unknown> = {};
    for (const name of names) if (this.random() < 0.7) args[name] = this.value();
    if (this.random() < 0.2) args[this.string() || 'extra'] = this.value();
    return args;
  }

  message(): unknown {
    const id = this.pick<unknown>([1, 'a', 0, -1, 1.5, null, '', 'x'.repeat(5_000), {}, [], true, undefined]);
    const jsonrpc = this.random() < 0.8 ? '2.0' : this.pick<unknown>(['1.0', '2', 2, null, '', undefined]);
    const tool = this.tools.length ? this.pick(this.tools) : undefined;
    switch (this.int(8)) {
      case 0:
      case 1:
      case 2:
        return {
          jsonrpc,
          id,
          method: 'tools/call',
          params: { name: tool?.name, arguments: tool && this.toolArguments(tool) },
        };
      case 3:
        return { jsonrpc, id, method: 'tools/call', params: { name: this.string(), arguments: this.value() } };
      case 4:
        return {
          jsonrpc,
          id,
          method: this.pick(['tools/list', 'resources/read', 'prompts/get', 'initialize', 'ping', 'resources/list']),
          params: this.value(),
        };
      case 5:
        return { jsonrpc, id, method: this.string(), params: this.value() };
      case 6:
        return { jsonrpc, method: this.pick(['notifications/initialized', 'notifications/cancelled', this.string()]) };
      default:
        return this.value();
    }
  }

  case(index: number): FuzzCase {
    const kind = this.int(20);
    if (kind < 9) return { label: `message #${index}`, body: toJson(this.message()) };
    if (kind < 11) {
      const size = this.pick([0, 1, 2, 5, 30, 1_001]);
      return { label: `batch of ${size} #${index}`, body: toJson(Array.from({ length: size }, () => this.message())) };
    }
    if (kind === 11) {
      const json = toJson(this.message());
      return { label: `truncated #${index}`, body: json.slice(0, this.int(json.length)) };
    }
    if (kind === 12) {
      return {
        label: `random bytes #${index}`,
        body: Uint8Array.from({ length: this.int(2_000) }, () => this.int(256)),
      };
    }
    if (kind === 13) {
      const levels = this.pick([10_000, 100_000]);
      const open = this.random() < 0.5 ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      return { label: `${levels}-deep body #${index}`, body: open.repeat(levels) + '1' + close.repeat(levels) };
    }
    if (kind === 14) {
      // Lone surrogates, NUL and RTL written as raw JSON escapes, which JSON.stringify would normalise.
      const tool = this.tools.length ? this.pick(this.tools).name : 'memory_store';
      const escape = this.pick(['\\ud800', '\\udfff\\ud800', '\\u0000', '\\u202e', '\\ud83d']);
      return {
        label: `raw escapes #${index}`,
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":{"content":"x${escape}y","query":"q${escape}","${escape}":1}}}`,
      };
    }
    if (kind === 15) {
      return {
        label: `odd headers #${index}`,
        body: toJson(this.message()),
        headers: {
          Accept: this.pick(['*/*', 'application/json, text/event-stream;q=0', 'text/event-stream, application/json']),
          'Content-Type': this.pick(['application/json; charset=utf-16', 'application/json;;', 'APPLICATION/JSON']),
          'MCP-Protocol-Version': this.pick(['2025-11-25', '2025-06-18', 'x'.repeat(300), '\u00e9t\u00e9']),
        },
      };
    }
    const tool = this.tools.length ? this.pick(this.tools) : { name: 'memory_store', inputSchema: {} };
    return {
      label: `tool ${tool.name} #${index}`,
      body: toJson({
        jsonrpc: '2.0',
        id: index,
        method: 'tools/call',
        params: { name: tool.name, arguments: this.toolArguments(tool) },
      }),
    };
  }
}

/** The cases most likely to hurt, sent on every run whatever the seed. */
function fixedCases(): FuzzCase[] {
  const call = (args: string, name = 'memory_store') =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
  const deepArray = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const list = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`;
  return [
    { label: 'fixed: 10k-deep argument value', body: call(`{"content":${deepArray(10_000)}}`) },
    { label: 'fixed: 10k-deep arguments object', body: call(deepObject(10_000)) },
    { label: 'fixed: 100k-deep argument value', body: call(`{"query":${deepArray(100_000)}}`, 'memory_recall') },
    {
      label: 'fixed: 10k-deep params',
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deepObject(10_000)}}`,
    },
    { label: 'fixed: 10k-deep id', body: `{"jsonrpc":"2.0","id":${deepArray(10_000)},"method":"ping"}` },
    { label: 'fixed: NUL in content', body: call('{"content":"before\\u0000after"}') },
    { label: 'fixed: lone surrogate in content', body: call('{"content":"half \\ud800 a pair"}') },
    {
      label: 'fixed: RTL and emoji in query',
      body: call('{"query":"\u202e\ud83d\ude00 \u05e9\u05dc\u05d5\u05dd"}', 'memory_recall'),
    },
    { label: 'fixed: 50k-character key', body: call(`{"${'k'.repeat(50_000)}":1,"content":"x"}`) },
    { label: 'fixed: 900k content', body: call(`{"content":"${'a'.repeat(900_000)}"}`) },
    { label: 'fixed: empty batch', body: '[]' },
    { label: 'fixed: batch with duplicate ids', body: `[${list('1')},${list('1')}]` },
    {
      label: 'fixed: batch with initialize',
      body: `[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}},${list('2')}]`,
    },
    { label: 'fixed: batch of 1001', body: `[${Array.from({ length: 1_001 }, (_, i) => list(String(i))).join(',')}]` },
    { label: 'fixed: object id', body: list('{"a":1}') },
    { label: 'fixed: response instead of request', body: '{"jsonrpc":"2.0","id":1,"result":{}}' },
    { label: 'fixed: jsonrpc 1.0', body: '{"jsonrpc":"1.0","id":1,"method":"tools/list"}' },
    {
      label: 'fixed: unknown method',
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/destroy_everything","params":{}}',
    },
    { label: 'fixed: null body', body: 'null' },
    { label: 'fixed: BOM before JSON', body: `\ufeff${list('1')}` },
  ];
}

describe('MCP gateway fuzz', () => {
  let world: GatewayWorld;
  let token: string;

  beforeAll(async () => {
    world = await startGatewayWorld({
      overrides: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000000', RATE_LIMIT_TENANT_PER_MINUTE: '1000000' },
    });
    const { tenant, projects } = await tenantWithProjects(world, 1);
    // Every toolset and the widest role: the most tools to throw arguments at.
    token = await tokenFor(world, tenant.slug, {
      role: 'admin',
      projects: '*',
      defaultProject: projects[0],
      agentId: 'fuzz:agent',
      toolsets: ['core', 'context', 'knowledge', 'maintenance', 'harness'],
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it(`never answers 5xx, never hangs, leaks nothing, and keeps serving (seed ${SEED})`, async () => {
    process.stdout.write(`MCP fuzz: FUZZ_SEED=${SEED} FUZZ_CASES=${CASES}\n`);
    const client = await connectClient(world.mcpUrl, token);
    const { tools } = await client.listTools();
    await client.close();
    const fuzzer = new Fuzzer(SEED, tools);
    const cases = [...fixedCases(), ...Array.from({ length: CASES }, (_, index) => fuzzer.case(index))];

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const fuzzCase = cases[next];
        next += 1;
        const problem = await send(world.mcpUrl, token, fuzzCase, statuses);
        if (problem) failures.push(`${fuzzCase.label}: ${problem} (FUZZ_SEED=${SEED})`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    process.stdout.write(`MCP fuzz statuses: ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    expect(failures).toEqual([]);

    // Still alive and well: a fresh client lists the same tools and a real call works.
    const after = await connectClient(world.mcpUrl, token);
    expect((await after.listTools()).tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    const recall = await after.callTool({ name: 'memory_recall', arguments: { query: 'anything at all' } });
    expect(recall.isError).toBeFalsy();
    await after.close();
  }, 240_000);
});

/** One request; returns what was wrong with the answer, if anything. */
async function send(
  url: string,
  token: string,
  fuzzCase: FuzzCase,
  statuses: Map<number, number>,
): Promise<string | undefined> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        ...fuzzCase.headers,
      },
      body: fuzzCase.body,
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });
    text = await response.text();
  } catch (error) {
    return `no answer within ${REQUEST_DEADLINE_MS} ms or connection failed: ${(error as Error).message}`;
  }
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  if (FUZZ_VERBOSE) process.stdout.write(`${fuzzCase.label} → ${response.status} ${text.slice(0, 240)}\n`);
  if (response.status >= 500) return `HTTP ${response.status}: ${text.slice(0, 300)}`;
  if (/\n\s+at \S+ \(|node_modules\/|QueryFailedError/.test(text)) return `leaks internals: ${text.slice(0, 300)}`;
  if (/internal_error|Internal error/.test(text)) return `internal error: ${text.slice(0, 300)}`;
  for (const error of jsonRpcErrors(text)) {
    // Params that do not match a method's schema are -32602 with a short reason; -32603
    // would mean an exception escaped.
    if (error.code === -32603) return `unexpected exception (-32603): ${error.message.slice(0, 300)}`;
  }
  return undefined;
}

/** The JSON-RPC errors in a JSON or SSE answer (single or batch). */
function jsonRpcErrors(text: string): { code: number; message: string }[] {
  const payloads =
    text.startsWith('event:') || text.startsWith('data:') || text.startsWith('id:')
      ? text
          .split('\n')
          .filter((row) => row.startsWith('data: '))
          .map((row) => row.slice(6))
      : [text];
  const errors: { code: number; message: string }[] = [];
  for (const payload of payloads) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      continue;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const error = (message as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      if (typeof error?.code === 'number') errors.push({ code: error.code, message: String(error.message) });
    }
  }
  return errors;
}
