#!/usr/bin/env bash
# Fuzzes the REST API with schemathesis (issue 13): every operation of /docs/json, every check,
# a bounded number of examples per operation. Installs the pinned schemathesis into a Python
# virtual environment under .tools/ (git-ignored, reused), then runs dist/tools/local/fuzz-api.js,
# which starts throwaway PostgreSQL and Redis and the built api (run `npm run build` first).
# Exits non-zero on any 5xx or any response that breaks the OpenAPI document.
#   FUZZ_MAX_EXAMPLES=N   examples per operation (default 25; CPU time grows with it)
#   FUZZ_SEED=N           reproduce a run (the seed is printed)
set -euo pipefail
cd "$(dirname "$0")/.."

readonly SCHEMATHESIS_VERSION=4.32.5
readonly VENV=.tools/schemathesis
export DEBIAN_FRONTEND=noninteractive

say() { printf '[fuzz-api] %s\n' "$*"; }
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi; }

# pip trusts the machine's CA bundle, as .ci/run makes Node do, for networks behind an inspecting proxy.
if [[ -z ${PIP_CERT:-} && -f /etc/ssl/certs/ca-certificates.crt ]]; then export PIP_CERT=/etc/ssl/certs/ca-certificates.crt; fi
command -v python3 >/dev/null || { say 'python3 is needed (apt-get install python3)'; exit 1; }
if [[ ! -x $VENV/bin/schemathesis ]] || [[ $("$VENV/bin/schemathesis" --version 2>/dev/null) != *" $SCHEMATHESIS_VERSION" ]]; then
  # Debian ships venv (and the ensurepip it needs) separately from python3.
  if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    say 'installing python3-venv'
    as_root apt-get update -qq
    as_root apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
say "$("$VENV/bin/schemathesis" --version)"

[[ -f dist/tools/local/fuzz-api.js ]] || { say 'dist/ is missing: run npm run build first'; exit 1; }
SCHEMATHESIS=$PWD/$VENV/bin/schemathesis exec node dist/tools/local/fuzz-api.js
