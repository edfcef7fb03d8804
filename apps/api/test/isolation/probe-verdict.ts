/**
 * One probe: a call of one route or tool with one kind of wrong token, and what its answer
 * may be. Kept apart from how the call is made, so REST and MCP probes are judged alike.
 */
export interface Probe {
  /** e.g. `REST GET /v1/projects/:project/memories/:id` or `MCP memory_get`. */
  readonly target: string;
  /** The token kind (see VictimWorld.tokens). */
  readonly caller: string;
  /** The call must be refused: any success is a leak. */
  readonly mustRefuse: boolean;
  /** Statuses (REST) or refusal kinds (MCP) that count as refused. */
  readonly refusals: readonly (number | string)[];
  /** Strings that must not appear in the answer (the victim's ids, markers and secrets). */
  readonly secrets: readonly string[];
  /** Everything the probe itself sent: echoing the caller's own input back is not a leak. */
  readonly sent: string;
  run(): Promise<ProbeAnswer>;
}

export interface ProbeAnswer {
  /** `2xx`-like success (REST status 200-299, MCP result without isError). */
  readonly succeeded: boolean;
  /** HTTP status (REST, or the MCP transport's when it refused before JSON-RPC) or MCP refusal code. */
  readonly outcome: number | string;
  /** The whole answer as text, headers aside: body, error body, SSE stream. */
  readonly text: string;
}

export interface ProbeFailure {
  readonly probe: string;
  readonly problem: string;
}

/** What is wrong with an answer; nothing when the probe held. */
export function judge(probe: Probe, answer: ProbeAnswer): string[] {
  const problems: string[] = [];
  const leaked = probe.secrets.filter((secret) => answer.text.includes(secret) && !probe.sent.includes(secret));
  if (leaked.length > 0) {
    problems.push(`victim data in the answer (${String(answer.outcome)}): ${leaked.map(redact).join(', ')}`);
  }
  if (probe.mustRefuse && answer.succeeded) problems.push(`succeeded (${String(answer.outcome)}) instead of refusing`);
  else if (probe.mustRefuse && !probe.refusals.includes(answer.outcome)) {
    // A validation error or a crash means the probe never reached the authorisation it tests.
    problems.push(`answered ${String(answer.outcome)}, expected one of ${probe.refusals.join('/')}`);
  }
  if (problems.length > 0) problems.push(`answer: ${answer.text.slice(0, 300)}`);
  return problems;
}

/** Failure messages name which secret leaked without printing it in full into CI logs. */
function redact(secret: string): string {
  return secret.length > 12 ? `${secret.slice(0, 12)}…` : secret;
}

/** Runs every probe with at most `limit` in flight, and returns the failures. */
export async function runProbes(probes: readonly Probe[], limit: number): Promise<ProbeFailure[]> {
  const failures: ProbeFailure[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < probes.length) {
      const probe = probes[next];
      next += 1;
      let problems: string[];
      try {
        problems = judge(probe, await probe.run());
      } catch (error) {
        problems = [`the call itself failed: ${(error as Error).message}`];
      }
      for (const problem of problems) failures.push({ probe: `${probe.target} as ${probe.caller}`, problem });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, probes.length) }, worker));
  return failures;
}
