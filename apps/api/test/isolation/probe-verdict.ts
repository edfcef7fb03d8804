/**
 * One probe: a call of one route or tool with one kind of wrong token, and what its answer
 * may be. Kept apart from how the call is made, so REST and MCP probes are judged alike.
 */
export interface Probe {
  /** e.g. `REST GET /v1/projects/:project/memories/:id` or `MCP memory_get`. */
  readonly target: string;
  /** The token kind (see VictimWorld.tokens); the runner passes that token to `run`. */
  readonly caller: string;
  /** Reads only (GET, read-only tools): safe to replay with any token. */
  readonly readOnly: boolean;
  /** The call must be refused: any success is a leak. */
  readonly mustRefuse: boolean;
  /** Statuses (REST) or refusal kinds (MCP) that count as refused. */
  readonly refusals: readonly (number | string)[];
  /** Strings that must not appear in the answer (the victim's ids, markers and secrets). */
  readonly secrets: readonly string[];
  /** Everything the probe itself sent: echoing the caller's own input back is not a leak. */
  readonly sent: string;
  run(token: string): Promise<ProbeAnswer>;
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
  /** A leak (victim data out, or a success where a refusal is due), not a probe that missed. */
  readonly leak: boolean;
}

export interface Problem {
  readonly text: string;
  readonly leak: boolean;
}

/** What is wrong with an answer; nothing when the probe held. */
export function judge(probe: Probe, answer: ProbeAnswer): Problem[] {
  const problems: Problem[] = [];
  const leaked = probe.secrets.filter((secret) => answer.text.includes(secret) && !probe.sent.includes(secret));
  if (leaked.length > 0) {
    const text = `victim data in the answer (${String(answer.outcome)}): ${leaked.map(redact).join(', ')}`;
    problems.push({ text, leak: true });
  }
  if (probe.mustRefuse && answer.succeeded) {
    problems.push({ text: `succeeded (${String(answer.outcome)}) instead of refusing`, leak: true });
  } else if (probe.mustRefuse && !probe.refusals.includes(answer.outcome)) {
    // A validation error or a crash means the probe never reached the authorisation it tests.
    const text = `answered ${String(answer.outcome)}, expected one of ${probe.refusals.join('/')}`;
    problems.push({ text, leak: false });
  }
  if (problems.length > 0) {
    problems.push({ text: `answer: ${answer.text.slice(0, 300)}`, leak: problems.some((problem) => problem.leak) });
  }
  return problems;
}

/** Failure messages name which secret leaked without printing it in full into CI logs. */
function redact(secret: string): string {
  return secret.length > 12 ? `${secret.slice(0, 12)}…` : secret;
}

export interface ProbeRun {
  readonly failures: ProbeFailure[];
  /** How each kind of caller was answered: caller -> outcome -> count. */
  readonly outcomes: Map<string, Map<string, number>>;
}

/** Runs every probe with at most `limit` in flight. */
export async function runProbes(
  probes: readonly Probe[],
  tokens: Readonly<Record<string, string>>,
  limit: number,
): Promise<ProbeRun> {
  const failures: ProbeFailure[] = [];
  const outcomes = new Map<string, Map<string, number>>();
  const tally = (caller: string, outcome: string) => {
    const counts = outcomes.get(caller) ?? new Map<string, number>();
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    outcomes.set(caller, counts);
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < probes.length) {
      const probe = probes[next];
      next += 1;
      let problems: Problem[];
      try {
        const token = tokens[probe.caller];
        if (!token) throw new Error(`no token for caller "${probe.caller}"`);
        const answer = await probe.run(token);
        tally(probe.caller, answer.succeeded ? 'answered' : String(answer.outcome));
        problems = judge(probe, answer);
      } catch (error) {
        tally(probe.caller, 'call failed');
        problems = [{ text: `the call itself failed: ${(error as Error).message}`, leak: false }];
      }
      for (const { text, leak } of problems) {
        failures.push({ probe: `${probe.target} as ${probe.caller}`, problem: text, leak });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, probes.length) }, worker));
  return { failures, outcomes };
}

/** One line per kind of caller: `other-tenant: 403 x61, 404 x40, answered x4`. */
export function describeOutcomes(outcomes: ProbeRun['outcomes']): string[] {
  return [...outcomes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([caller, counts]) =>
        `  ${caller}: ${[...counts]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([outcome, count]) => `${outcome} x${count}`)
          .join(', ')}`,
    );
}

export function mergeOutcomes(...runs: ProbeRun['outcomes'][]): ProbeRun['outcomes'] {
  const merged = new Map<string, Map<string, number>>();
  for (const run of runs) {
    for (const [caller, counts] of run) {
      const into = merged.get(caller) ?? new Map<string, number>();
      for (const [outcome, count] of counts) into.set(outcome, (into.get(outcome) ?? 0) + count);
      merged.set(caller, into);
    }
  }
  return merged;
}
