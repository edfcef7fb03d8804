import { type Role, roleGrants } from '@cairn/access';
import { postRaw, rpc } from '@cairn/gateway-harness';
import { type RegisteredTool } from '@cairn/mcp';
import {
  aimAtVictim,
  changesSomething,
  declares,
  minimalInstance,
  NAMING_FIELDS,
  type NamingField,
  requiredInstance,
} from './probe-inputs';
import { type Probe, type ProbeAnswer } from './probe-verdict';
import { type VictimWorld } from './victim-world';

/**
 * How a tool call refuses: the executor's `isError` results carry a domain code. Anything else
 * (invalid_arguments, internal_error) means the probe never reached the check it tests.
 */
const TOOL_REFUSALS = ['project_forbidden', 'insufficient_role', 'not_found', 'forbidden'];
const BAD_TOKENS = ['revoked', 'expired', 'malformed', 'disabled-user'] as const;
const LOWER_ROLES: readonly Role[] = ['member', 'orchestrator', 'agent', 'reader'];

/**
 * A tool's arguments, generated from its listed input schema and aimed at the victim; for a
 * tool with an optional field naming the victim's (projects, a fetch job), a variant naming it.
 */
function aimedArguments(tool: RegisteredTool, victim: VictimWorld) {
  // The noun of `memory_get`, `secret_get`: which victim object an `id` argument names
  // (memory_review decides a review: its id names one).
  const noun = tool.spec.name === 'memory_review' ? 'review' : tool.spec.name.split('_')[0];
  const aim = (value: unknown, name?: NamingField) => {
    const aimed = aimAtVictim(value, noun, victim, { name });
    const args = tool.spec.scope === 'project' ? { ...(aimed.body as object), project: victim.project } : aimed.body;
    return {
      args,
      namesVictimObject: aimed.namesVictimObject,
      variant: name ? ` (naming the victim's ${name})` : '',
    };
  };
  // The tool's own validator judges the candidates, once aimed (the victim's real ids replace
  // generated ones); a field beyond the address is preferred, since some handlers refuse a
  // bare call ("pass exactly one of ...") before any lookup.
  const accepts = (value: unknown) => changesSomething(value) && tool.input.safeParse(aim(value).args).success;
  const schema = tool.listing.inputSchema as object;
  const generated = minimalInstance(schema, {}, accepts);
  const named = NAMING_FIELDS.filter((field) => declares(schema, field) && !(field in (generated as object)));
  return [aim(generated), ...named.map((name) => aim(requiredInstance(schema), name))];
}

/** Every registered tool crossed with every kind of wrong caller, as for the REST routes. */
export function mcpProbes(tools: readonly RegisteredTool[], mcpUrl: string, victim: VictimWorld): Probe[] {
  const probes: Probe[] = [];
  for (const [tool, { args, namesVictimObject, variant }] of tools.flatMap((tool) =>
    aimedArguments(tool, victim).map((aimed) => [tool, aimed] as const),
  )) {
    const body = rpc('tools/call', { name: tool.spec.name, arguments: args });
    const probe = (caller: string, mustRefuse: boolean, refusals: (number | string)[], secrets: readonly string[]) =>
      ({
        target: `MCP ${tool.spec.name}${variant}`,
        caller,
        mustRefuse,
        refusals,
        secrets,
        readOnly: tool.spec.annotations.readOnlyHint,
        sent: body,
        run: (token: string) => callRaw(mcpUrl, body, token),
      }) satisfies Probe;
    const projectTool = tool.spec.scope === 'project';
    for (const caller of BAD_TOKENS) probes.push(probe(caller, true, [401], victim.tenantSecrets));
    probes.push(probe('other-tenant', projectTool, TOOL_REFUSALS, victim.tenantSecrets));
    if (projectTool) {
      probes.push(probe('other-tenant-same-project-slug', namesVictimObject, TOOL_REFUSALS, victim.tenantSecrets));
    }
    probes.push(probe('other-project', projectTool, TOOL_REFUSALS, victim.projectSecrets));
    probes.push(probe('other-agent', false, TOOL_REFUSALS, victim.privateSecrets));
    for (const role of LOWER_ROLES) {
      if (!roleGrants(role, tool.spec.permission)) {
        // The gateway answers a call its scope lacks with HTTP 403 insufficient_scope (step-up).
        probes.push(probe(`lower:${role}`, true, [403, 'insufficient_role'], victim.tenantSecrets));
      }
    }
  }
  return probes;
}

/** One stateless JSON-RPC request over real HTTP; the outcome is the refusal code (tool or RPC) or status. */
export async function callRaw(url: string, body: string, token: string): Promise<ProbeAnswer> {
  const response = await postRaw(url, body, { Authorization: `Bearer ${token}` });
  const text = `${response.text}\n${JSON.stringify(Object.fromEntries(response.headers))}`;
  if (response.status !== 200) return { succeeded: false, outcome: response.status, text };
  const message = response.json ?? parseEventStream(response.text);
  if (message?.error) return { succeeded: false, outcome: `rpc:${String(message.error.code)}`, text };
  const result = message?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  if (!result) return { succeeded: false, outcome: 'no result', text };
  if (!result.isError) return { succeeded: true, outcome: 'success', text };
  const code = /^Error \(([a-z_]+)\)/.exec(result.content?.[0]?.text ?? '')?.[1] ?? 'unknown';
  return { succeeded: false, outcome: code, text };
}

/** The JSON-RPC message of a one-event SSE answer, for a gateway that streams. */
function parseEventStream(text: string): any {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .join('');
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
