#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# package.json) against the built gateway, once per protocol revision the gateway serves:
# `--requirements 2025-11-25` (stateful initialize handshake) and `--requirements 2026-07-28`
# (stateless, per-request _meta), each the frozen set of server scenarios that revision
# requires, run at its own wire version against the same /mcp. Starts the stack the way
# `npm start` does (dist/tools/local/start.js: local PostgreSQL+pgvector and Redis, or
# DATABASE_URL/REDIS_URL when set) with a state dir of its own (so it runs beside the clone's
# own `npm start`, which would refuse a second launcher in .cairn/) on free loopback ports,
# issues a tenant token through the admin API, puts a bearer-injecting proxy
# (tools/mcp-conformance/token-proxy.ts) in front of /mcp (the suite's client sends no
# Authorization header), prints the suite's summaries and fails on any failure not listed,
# with its reason, under that revision in scripts/mcp-conformance-expected.json (and on a
# listed one that now passes, so the list cannot go stale). An entry names a scenario, or one
# check of it as `scenario:check-id` so the scenario's other checks still count. Set
# MCP_CONFORMANCE_RESULTS=<dir> to keep the per-scenario checks.json files (one subdirectory
# per revision). Needs Node 22+ (the suite's own requirement) and `npm run build` done first.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[mcp-conformance] %s\n' "$*" >&2; }
[[ -f dist/tools/local/start.js && -f dist/tools/mcp-conformance/token-proxy.js ]] || {
  say 'dist/ is missing: run npm run build first'
  exit 1
}
(($(node -p 'process.versions.node.split(".")[0]') >= 22)) || {
  say "the conformance suite needs Node 22+, this is $(node -v)"
  exit 1
}
SUITE=node_modules/@modelcontextprotocol/conformance/dist/index.js
[[ -f $SUITE ]] || {
  say "$SUITE is missing: run npm ci"
  exit 1
}

work=$(mktemp -d)
# As root PostgreSQL runs as `postgres`, which must reach its data dir under $work/state.
chmod 755 "$work"
stack_pid=''
proxy_pid=''
cleanup() {
  # Only the processes started here, by their ids: start.js stops its apps and local services.
  [[ -n $proxy_pid ]] && kill "$proxy_pid" 2>/dev/null || true
  if [[ -n $stack_pid ]]; then
    kill -TERM "$stack_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$stack_pid" 2>/dev/null || break; sleep 0.5; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
api_port=$(free_port)
mcp_port=$(free_port)
worker_port=$(free_port)
proxy_port=$(free_port)
admin_token="cairn_pa_$(node -p 'require("crypto").randomBytes(32).toString("base64url")')"

say "starting the stack (api :$api_port, mcp-gateway :$mcp_port, worker :$worker_port)"
CAIRN_STATE_DIR=$work/state HOST=127.0.0.1 API_PORT=$api_port MCP_PORT=$mcp_port WORKER_PORT=$worker_port \
  CAIRN_ADMIN_TOKEN=$admin_token EMBEDDING_PROVIDER=${EMBEDDING_PROVIDER:-hash} LOG_LEVEL=${LOG_LEVEL:-warn} \
  node dist/tools/local/start.js >"$work/stack.log" 2>&1 &
stack_pid=$!

ready() { curl -fs -o /dev/null "http://127.0.0.1:$1/readyz"; }
for _ in $(seq 1 240); do
  if ready "$api_port" && ready "$mcp_port"; then break; fi
  kill -0 "$stack_pid" 2>/dev/null || break
  sleep 0.5
done
if ! { ready "$api_port" && ready "$mcp_port"; }; then
  say 'the stack did not become ready; its log:'
  tail -n 80 "$work/stack.log" >&2
  exit 1
fi

admin() {
  curl -fsS -X POST "http://127.0.0.1:$api_port$1" -H @"$work/admin-header" \
    -H 'Content-Type: application/json' -d "$2"
}
# Headers from a file: a token on curl's command line is visible to every local user.
(umask 077 && printf 'Authorization: Bearer %s\n' "$admin_token" >"$work/admin-header")
tenant="conformance-$(date +%s)"
admin /v1/tenants "{\"slug\":\"$tenant\",\"name\":\"MCP conformance\"}" >/dev/null
admin "/v1/tenants/$tenant/projects" '{"slug":"conformance","name":"MCP conformance"}' >/dev/null
token=$(admin "/v1/tenants/$tenant/tokens" '{"role":"agent","projects":["conformance"],"agentId":"mcp-conformance"}' |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')

(umask 077 && printf '%s' "$token" >"$work/token")
node dist/tools/mcp-conformance/token-proxy.js "$proxy_port" "$mcp_port" "$work/token" 2>>"$work/proxy.log" &
proxy_pid=$!
for _ in $(seq 1 40); do
  curl -s -o /dev/null "http://127.0.0.1:$proxy_port/" && break
  sleep 0.25
done

# The revisions the gateway serves (README, "Protocol revisions"): each is run as its own set.
REVISIONS=(2025-11-25 2026-07-28)
results=${MCP_CONFORMANCE_RESULTS:-$work/results}
failed=()
for revision in "${REVISIONS[@]}"; do
  # The expected failures, with their reasons, live in JSON; the suite reads a YAML list of names.
  node -e '
    const list = require("./scripts/mcp-conformance-expected.json").server[process.argv[1]];
    if (!Array.isArray(list)) throw new Error(`no expected-failures list for ${process.argv[1]}`);
    console.log(list.length === 0 ? "server: []" : "server:\n" + list.map((entry) => `  - ${entry.scenario}`).join("\n"));
    for (const entry of list) console.error(`  ${entry.scenario}: ${entry.reason}`);
  ' "$revision" >"$work/expected-$revision.yaml" 2>"$work/reasons-$revision.txt"
  say "requirements $revision: expected failures, with their reasons:"
  cat "$work/reasons-$revision.txt" >&2
  # localhost, not 127.0.0.1: the suite's DNS-rebinding scenario sends the URL's host as Host and Origin.
  set +e
  node "$SUITE" server --url "http://localhost:$proxy_port/mcp" --requirements "$revision" \
    --expected-failures "$work/expected-$revision.yaml" --output-dir "$results/$revision" 2>&1 |
    tee "$work/suite-$revision.log"
  status=${PIPESTATUS[0]}
  set -e
  if ((status != 0)); then
    say "requirements $revision failed (exit $status): an unexpected failure, or an expected one that now passes (remove it from scripts/mcp-conformance-expected.json)"
    failed+=("$revision")
  fi
done
if ((${#failed[@]} > 0)); then
  grep -iE 'error|fail' "$work/stack.log" | tail -n 20 >&2 || true
  say "failed: ${failed[*]}"
  exit 1
fi
say "conformance suite passed for ${REVISIONS[*]} (expected failures only)"
