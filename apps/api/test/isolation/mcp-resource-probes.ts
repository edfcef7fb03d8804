import { type Role } from '@cairn/access';
import { rpc } from '@cairn/gateway-harness';
import { callRaw } from './mcp-probes';
import { victimParam } from './probe-inputs';
import { type Probe } from './probe-verdict';
import { type VictimWorld } from './victim-world';

/** How `resources/read` refuses: resource not found (-32002) or a domain refusal as invalid params. */
const RESOURCE_REFUSALS = ['rpc:-32002', 'rpc:-32602'];
const BAD_TOKENS = ['revoked', 'expired', 'malformed', 'disabled-user'] as const;
const ROLES: readonly Role[] = ['member', 'orchestrator', 'agent', 'reader'];

interface Template {
  readonly uriTemplate: string;
  readonly name: string;
}

/** The resource templates the gateway serves to a token, as `resources/templates/list` answers it. */
async function templatesFor(mcpUrl: string, token: string): Promise<Template[]> {
  const answer = await callRaw(mcpUrl, rpc('resources/templates/list'), token);
  const message = JSON.parse(answer.text.split('\n')[0]) as { result?: { resourceTemplates?: Template[] } };
  if (!message.result?.resourceTemplates) throw new Error(`resources/templates/list: ${answer.text.slice(0, 200)}`);
  return message.result.resourceTemplates;
}

/** The template filled with the victim's values: `cairn://memories/{id}` names the victim's memory. */
function victimUri(template: string, victim: VictimWorld): { uri: string; namesVictimObject: boolean } {
  let namesVictimObject = false;
  const uri = template.replace(/\{([a-zA-Z]+)\}/g, (_match, name: string, offset: number) => {
    // The path segment before the variable says what it names (`memories/{id}`).
    const resource = template.slice(0, offset).split('/').filter(Boolean).at(-1) ?? '';
    namesVictimObject ||= name === 'id';
    return encodeURIComponent(victimParam(name, resource, victim));
  });
  return { uri, namesVictimObject };
}

/**
 * Every resource template the gateway serves (as listed to the victim's admin), read at the
 * victim's objects by every kind of wrong caller. Which roles lack a template's permission is
 * what the gateway lists to each role's token: a template a role is not shown, it must not read.
 */
export async function mcpResourceProbes(mcpUrl: string, victim: VictimWorld): Promise<Probe[]> {
  const templates = await templatesFor(mcpUrl, victim.victimToken);
  const shownTo = new Map<Role, Set<string>>();
  for (const role of ROLES) {
    const token = victim.tokens[`lower:${role}`];
    shownTo.set(role, new Set((await templatesFor(mcpUrl, token)).map((template) => template.uriTemplate)));
  }
  const probes: Probe[] = [];
  for (const template of templates) {
    const { uri, namesVictimObject } = victimUri(template.uriTemplate, victim);
    const body = rpc('resources/read', { uri });
    const probe = (caller: string, mustRefuse: boolean, refusals: (number | string)[], secrets: readonly string[]) =>
      ({
        target: `MCP resource ${template.uriTemplate}`,
        caller,
        mustRefuse,
        refusals,
        secrets,
        readOnly: true,
        sent: body,
        run: (token: string) => callRaw(mcpUrl, body, token),
      }) satisfies Probe;
    for (const caller of BAD_TOKENS) probes.push(probe(caller, true, [401], victim.tenantSecrets));
    probes.push(probe('other-tenant', true, RESOURCE_REFUSALS, victim.tenantSecrets));
    probes.push(probe('other-tenant-same-project-slug', namesVictimObject, RESOURCE_REFUSALS, victim.tenantSecrets));
    probes.push(probe('other-project', true, RESOURCE_REFUSALS, victim.projectSecrets));
    probes.push(probe('other-agent', false, RESOURCE_REFUSALS, victim.privateSecrets));
    for (const role of ROLES) {
      if (!shownTo.get(role)?.has(template.uriTemplate)) {
        probes.push(probe(`lower:${role}`, true, RESOURCE_REFUSALS, victim.tenantSecrets));
      }
    }
  }
  return probes;
}
