import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { actorOf, assertProjectAccess, roleGrants, type SessionPrincipal } from '@cairn/access';
import { AuditBuffer, AuditOutbox, type AuditReservation } from '@cairn/audit';
import {
  CairnError,
  isConnectionFailure,
  nameForMessage,
  pathForMessage,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '@cairn/common';
import { RequestContext } from '@cairn/observability';
import { TenantEntry } from '@cairn/tenancy';
import { type CallToolResult, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { type z } from 'zod';
import { type ToolCall } from './contract/mcp-tool';
import { ProtocolError } from './json-rpc-errors';
import { isEnabled, type RegisteredTool, ToolRegistry } from './tool.registry';
import { ToolMetrics, type ToolOutcome } from './tool-metrics.service';

/** A refusal the agent can act on; becomes an `isError` result, never a protocol error. */
class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly outcome: ToolOutcome,
    /** For a retryable refusal: how long to wait before calling again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The `_meta` key of a refused call's code (and retry delay), for programs that do not parse prose. */
const TOOL_ERROR_META = 'cairn/error';

/**
 * The text says it for the model; `_meta` says it for programs. Not `structuredContent`: a
 * client checks that against the tool's output schema, which describes the success answer.
 */
function refusalResult(refusal: ToolRefusal): CallToolResult {
  const { code, retryAfterSeconds } = refusal;
  return {
    isError: true,
    content: [{ type: 'text', text: `Error (${code}): ${refusal.message}` }],
    _meta: { [TOOL_ERROR_META]: retryAfterSeconds === undefined ? { code } : { code, retryAfterSeconds } },
  };
}

/** A retryable refusal: the dependency named is unreachable for the moment. */
function unavailable(what: string, correlationId: string): ToolRefusal {
  return new ToolRefusal(
    'unavailable',
    `${what} is unreachable for the moment; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s (correlation id ${correlationId})`,
    'tool_error',
    UNAVAILABLE_RETRY_AFTER_SECONDS,
  );
}

/**
 * Runs one `tools/call`: validates arguments, resolves the project, runs the handler in the
 * caller's tenant context, checks the answer against the output schema, and records the
 * call (metrics, log line, audit row with an argument digest, never the arguments).
 */
@Injectable()
export class ToolExecutor {
  private readonly logger = new Logger('McpTools');

  constructor(
    private readonly registry: ToolRegistry,
    private readonly entry: TenantEntry,
    private readonly metrics: ToolMetrics,
    private readonly audit: AuditBuffer,
    private readonly outbox: AuditOutbox,
  ) {}

  /**
   * The tool a principal may call by this name, or a JSON-RPC error. A tool outside the
   * token's toolsets that its role may call names the toolset and how to enable it; one the
   * role may never call stays unknown (a token with its toolset still could not call it).
   */
  find(name: string, principal: SessionPrincipal): RegisteredTool {
    const tool = this.registry.get(name);
    if (tool && isEnabled(tool, principal)) return tool;
    if (tool && roleGrants(principal.role, tool.spec.permission)) {
      const { toolset } = tool.spec;
      const toolsets = JSON.stringify([...principal.toolsets, toolset]).replaceAll(',', ', ');
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${tool.spec.name} is in the "${toolset}" toolset, which this token does not enable: an admin of the ` +
          `tenant issues a token with "toolsets": ${toolsets} (POST /v1/tenants/${principal.tenant.slug}/tokens)`,
        { toolset },
      );
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 64)}`);
  }

  async call(
    tool: RegisteredTool,
    args: Record<string, unknown> | undefined,
    principal: SessionPrincipal,
    correlationId: string,
  ): Promise<CallToolResult> {
    const started = performance.now();
    const name = tool.spec.name;
    let outcome: ToolOutcome = 'success';
    let errorCode: string | undefined;
    let project: string | null = null;
    let result: CallToolResult;
    let reservation: AuditReservation | undefined;
    const argsDigest = digest(withoutSecrets(args, tool.spec.secretArguments));
    try {
      if (!roleGrants(principal.role, tool.spec.permission)) {
        throw new ToolRefusal('insufficient_role', `Role "${principal.role}" may not call ${name}`, 'denied');
      }
      const { project: named, ...input } = this.validate(tool, args ?? {});
      // Handlers get the resolved project in `call`, and only their own arguments in `input`.
      const call: ToolCall =
        tool.spec.scope === 'project'
          ? { principal, project: this.projectOf(named, principal), correlationId }
          : { principal, project: null, correlationId };
      project = call.project;
      // A call that may change state writes its entry in the transaction of its change (the
      // outbox): killed between its commit and its answer, the replica still leaves the entry.
      reservation = tool.spec.annotations.readOnlyHint
        ? undefined
        : this.outbox.reserve(
            principal.tenant,
            auditEntryOf({ principal, tool: name, project, outcome, correlationId, argsDigest, errorCode }),
          );
      const beforeCommit = reservation?.beforeCommit;
      const answer = await RequestContext.run({ correlationId, tenantId: principal.tenant.id }, () =>
        this.entry.run(principal.tenant, () => tool.handler.run(input, call), { beforeCommit }),
      );
      const structured = tool.spec.output.parse(answer.structured);
      result = { structuredContent: structured, content: [{ type: 'text', text: answer.text }] };
    } catch (error) {
      const refusal = this.refusalOf(error, correlationId, name);
      outcome = refusal.outcome;
      errorCode = refusal.code;
      result = refusalResult(refusal);
    }
    const seconds = (performance.now() - started) / 1000;
    this.metrics.calls.inc({ tool: name, outcome });
    this.metrics.duration.observe({ tool: name }, seconds);
    // Before the answer leaves: once the caller has it, its audit entry survives a crash.
    const recorded = await this.record({
      principal,
      tool: name,
      project,
      outcome,
      correlationId,
      argsDigest,
      errorCode,
      seconds,
      outboxId: reservation?.committedId(),
    });
    if (recorded) return result;
    // Neither Redis nor the database took the entry (it stays queued in memory): an answer now
    // could outlive its audit, so the caller gets a retryable error instead (memory_store with
    // the same idempotencyKey then returns what this call stored, audited anew).
    return refusalResult(unavailable('The audit log', correlationId));
  }

  private validate(
    tool: RegisteredTool,
    args: Record<string, unknown>,
  ): Record<string, unknown> & { project?: string } {
    const parsed = tool.input.safeParse(args);
    if (parsed.success) return parsed.data;
    throw new ToolRefusal('invalid_arguments', describeIssues(parsed.error), 'invalid_arguments');
  }

  private projectOf(named: string | undefined, principal: SessionPrincipal): string {
    const project = named ?? principal.defaultProject;
    if (!project) {
      const scope = principal.projects === '*' ? 'every project' : principal.projects.join(', ');
      throw new ToolRefusal(
        'project_required',
        `Name a project: this token has no default project (it may use ${scope})`,
        'invalid_arguments',
      );
    }
    // A 403 domain error: refusalOf reports it as a denial with its code, project_forbidden.
    assertProjectAccess(principal, project);
    return project;
  }

  private refusalOf(error: unknown, correlationId: string, tool: string): ToolRefusal {
    if (error instanceof ToolRefusal) return error;
    if (error instanceof CairnError) {
      const outcome: ToolOutcome = error.status === 403 ? 'denied' : 'tool_error';
      const details = validationDetails(error.details);
      // A 429 or 503 of the domain (the channel's rate limit, a dependency away) says when, as on REST.
      const retryAfter = Number(error.headers['Retry-After']);
      return new ToolRefusal(
        error.code,
        details ? `${error.message}: ${details}` : error.message,
        outcome,
        Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      );
    }
    if (isConnectionFailure(error)) {
      // Retryable, unlike an internal error: the client repeats the call (memory_store with the
      // same idempotencyKey, so a write that did commit is not stored twice).
      this.logger.warn({ msg: 'tool call met an unavailable database', tool, correlationId, err: error });
      return unavailable('The database', correlationId);
    }
    this.logger.error({ msg: 'tool failed', tool, correlationId, err: error });
    return new ToolRefusal(
      'internal_error',
      `Internal error; nothing about it is shown here (correlation id ${correlationId})`,
      'internal_error',
    );
  }

  /**
   * Logs the call and queues its audit entry durably; false when the entry is not durable.
   * Never throws, so recording cannot turn an answered call into a protocol error.
   */
  private async record(call: CallRecord): Promise<boolean> {
    try {
      return await this.writeRecord(call);
    } catch (error) {
      this.logger.error({
        msg: 'could not record a tool call',
        tool: call.tool,
        correlationId: call.correlationId,
        err: error,
      });
      return false;
    }
  }

  private writeRecord(call: CallRecord): Promise<boolean> {
    const { principal, tool, project, outcome, correlationId, seconds } = call;
    const toolMs = Math.round(seconds * 10_000) / 10;
    const completion = RequestContext.current()?.completion;
    if (completion && completion.tool === undefined) {
      // The request's completion line says it (one line per call instead of two).
      Object.assign(completion, { tool, project, outcome, toolMs });
    } else {
      this.logger.log({
        msg: 'tool call',
        tool,
        tenantId: principal.tenant.id,
        project,
        outcome,
        correlationId,
        toolMs,
      });
    }
    return this.audit.append(principal.tenant.schema, { ...auditEntryOf(call), outboxId: call.outboxId });
  }
}

/** One tool call, as the audit entry describes it. */
interface AuditedCall {
  readonly principal: SessionPrincipal;
  readonly tool: string;
  readonly project: string | null;
  readonly outcome: ToolOutcome;
  readonly correlationId: string;
  /** Identifies the arguments without their content. */
  readonly argsDigest: string;
  readonly errorCode: string | undefined;
}

/** One answered tool call, as the log line and the audit entry describe it. */
interface CallRecord extends AuditedCall {
  readonly seconds: number;
  /** The outbox row the call's change committed with, which its entry replaces. */
  readonly outboxId: string | undefined;
}

function auditEntryOf({ principal, tool, project, outcome, correlationId, argsDigest, errorCode }: AuditedCall) {
  return {
    actor: actorOf(principal),
    action: `mcp.${tool}`,
    target: project,
    outcome:
      outcome === 'success' ? ('success' as const) : outcome === 'denied' ? ('denied' as const) : ('failure' as const),
    status: null,
    requestId: correlationId,
    details: {
      agentId: principal.agentId,
      argsDigest,
      ...(errorCode ? { code: errorCode } : {}),
    },
  };
}

function withoutSecrets(args: Record<string, unknown> | undefined, secrets: readonly string[] | undefined): unknown {
  if (!args || !secrets || secrets.length === 0) return args;
  return Object.fromEntries(Object.entries(args).filter(([name]) => !secrets.includes(name)));
}

/** Identifies the arguments (same call, same digest) without storing any of their content. */
function digest(args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(args ?? {}))
    .digest('hex')
    .slice(0, 32);
}

function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const path = pathForMessage(issue.path);
    const keys =
      'keys' in issue && Array.isArray(issue.keys)
        ? `unknown argument(s): ${issue.keys.map(nameForMessage).join(', ')}`
        : '';
    return `${path ? `${path}: ` : ''}${keys || issue.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `Invalid arguments: ${issues.join('; ')}${more}`;
}

function validationDetails(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  const parts = details
    .slice(0, 5)
    .map((item: unknown) => (typeof item === 'object' && item && 'message' in item ? String(item.message) : undefined))
    .filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : undefined;
}
