#!/usr/bin/env bash
# The official MCP conformance suite's CLIENT scenarios (@modelcontextprotocol/conformance, pinned
# in package.json) against `cairn`, Cairn's MCP client: for each scenario the suite starts its mock
# MCP server (and authorization servers) and runs tools/mcp-conformance/cairn-client.ts with the
# server's URL, which starts the built `cairn mcp --oauth` over stdio as an agent would and asks
# for the tools and calls them; the bridge does the OAuth flow (its "browser" follows the mock's
# redirects to cairn's loopback redirect: tools/mcp-conformance/browser.ts).
#
# Scenarios run, one at a time (two cores; each starts three node processes):
# - every authorization scenario (auth/*) the suite has, but the extensions (client credentials,
#   DPoP, enterprise-managed, workload identity: optional by definition, and not what `cairn`
#   does: it authorizes a person in a browser);
# - the other client scenarios the 2025-11-25 requirement set names (initialize, tools_call, …).
# The scenarios that exist only for the 2026-07-28 revision run on the 2025-11-25 wire
# (--spec-version 2025-11-25 --force): that revision's stateless wire (per-request _meta, no
# initialize) is not spoken by the MCP SDK (1.32) the bridge and its clients use, and what these
# scenarios check, the OAuth flow, is the same on both. The 2026-07-28 set's non-authorization
# client scenarios (request-metadata, http-*-headers, …) are about that wire and are not run.
#
# Fails on any failure not listed, with its reason, in scripts/mcp-conformance-client-expected.json,
# and on a listed one that now passes. MCP_CONFORMANCE_RESULTS=<dir> keeps each scenario's
# checks.json, stdout and stderr. Needs Node 22+ and `npm run build` done first.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[mcp-conformance-client] %s\n' "$*" >&2; }
for built in dist/apps/cli/src/main.js dist/tools/mcp-conformance/cairn-client.js dist/tools/mcp-conformance/browser.js; do
  [[ -f $built ]] || {
    say "$built is missing: run npm run build first"
    exit 1
  }
done
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
trap 'rm -rf "$work"' EXIT
results=${MCP_CONFORMANCE_RESULTS:-$work/results}

# The expected failures, with their reasons, live in JSON; the suite reads a YAML list of names.
node -e '
  const list = require("./scripts/mcp-conformance-client-expected.json").client;
  console.log(list.length === 0 ? "client: []" : "client:\n" + list.map((entry) => `  - ${entry.scenario}`).join("\n"));
' >"$work/expected.yaml"
say 'expected failures, with their reasons:'
node -e 'for (const e of require("./scripts/mcp-conformance-client-expected.json").client) console.error(`  ${e.scenario}: ${e.reason}`)'

# "<scenario> <wire flags>" per line, from the suite's own lists.
node "$SUITE" list --client >"$work/all.txt"
node "$SUITE" list --client --requirements 2025-11-25 >"$work/required.txt"
node -e '
  const fs = require("fs");
  // "  - name [tag,tag]" lines of the client section of a `list` output.
  const clientEntries = (file) => {
    const text = fs.readFileSync(file, "utf8");
    const section = text.slice(text.indexOf("Client scenarios")).split(/\n(?=\S)/)[0];
    return section.split("\n").map((line) => /^\s+- (\S+)(?: \[([^\]]*)\])?/.exec(line)).filter(Boolean)
      .map(([, name, tags]) => ({ name, tags: tags ? tags.split(",") : [] }));
  };
  const [allFile, requiredFile] = process.argv.slice(1);
  const required = new Set(clientEntries(requiredFile).map((entry) => entry.name));
  for (const { name, tags } of clientEntries(allFile)) {
    const auth = name.startsWith("auth/") && !tags.includes("extension");
    if (!auth && !required.has(name)) continue;
    const onlyLater = !tags.some((tag) => tag <= "2025-11-25");
    console.log(onlyLater ? `${name} --spec-version 2025-11-25 --force` : name);
  }
' "$work/all.txt" "$work/required.txt" >"$work/scenarios.txt"

unexpected=()
count=0
while read -r scenario flags; do
  count=$((count + 1))
  log="$work/$(tr / _ <<<"$scenario").log"
  run_scenario() {
    # shellcheck disable=SC2086 # the wire flags are words
    node "$SUITE" client --command "node dist/tools/mcp-conformance/cairn-client.js" --scenario "$scenario" $flags \
      --expected-failures "$work/expected.yaml" --output-dir "$results" >"$log" 2>&1
  }
  # sse-retry measures, in milliseconds, how long the client waits before it reconnects; on a
  # loaded two-core machine the suite's own clock has measured a negative wait. A timing failure
  # there gets one more run; any other failure, and a second one, stands.
  if run_scenario || { [[ $scenario == sse-retry ]] && grep -q 'reconnected too early' "$log" && run_scenario; }; then
    outcome=$(grep -q 'Expected failures (in baseline)' "$log" && echo 'failed, as expected' || echo 'passed')
  else
    outcome='UNEXPECTED (a new failure, or an expected one that now passes)'
    unexpected+=("$scenario")
  fi
  checks=$(grep -oE '^Passed: [0-9]+/[0-9]+' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  printf '%-45s %s%s\n' "$scenario" "$outcome" "${checks:+ (checks $checks)}"
done <"$work/scenarios.txt"

if ((${#unexpected[@]} > 0)); then
  for scenario in "${unexpected[@]}"; do
    say "--- $scenario ---"
    grep -E 'FAILURE|WARNING|Stale|Unexpected|Client exited|^cairn|Error' "$work/$(tr / _ <<<"$scenario").log" | head -n 40 >&2 || true
  done
  say "${#unexpected[@]} of $count client scenarios did not go as scripts/mcp-conformance-client-expected.json says: ${unexpected[*]}"
  exit 1
fi
say "$count client scenarios as expected"
