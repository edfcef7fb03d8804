#!/bin/sh
# Entry point of the Cairn image: `cairn api|mcp-gateway|worker|migrate|keys-rotate|integrity|healthcheck`.
# Paths are relative to the image WORKDIR (/app). exec replaces the shell, so the app is PID 1
# and receives SIGTERM for its graceful shutdown.
set -eu
app=${1:-api}
case "$app" in
  api) exec node dist/apps/api/src/main.js ;;
  mcp-gateway) exec node dist/apps/mcp-gateway/src/main.js ;;
  worker) exec node dist/apps/worker/src/main.js ;;
  migrate) exec node dist/apps/api/src/migrate.js ;;
  # npm run keys:rotate, e.g. kubectl exec deploy/cairn-api -- cairn keys-rotate [--data-key <tenant-slug>]
  keys-rotate) shift; exec node dist/tools/keys/rotate.js "$@" ;;
  # The image's files against the manifest its build wrote (dist/integrity.json): exit 0 when
  # every file matches, 65 with the differences otherwise (what CAIRN_INTEGRITY=strict checks at start).
  integrity) exec node dist/tools/integrity/main.js check ;;
  healthcheck)
    # One app runs per container; whichever port answers /healthz with 200 is it.
    exec node -e '
      const ports = [process.env.API_PORT || 8080, process.env.MCP_PORT || 8081, process.env.WORKER_PORT || 8082];
      Promise.any(ports.map((p) => fetch(`http://127.0.0.1:${p}/healthz`, { signal: AbortSignal.timeout(2000) })
        .then((r) => (r.status === 200 ? r : Promise.reject(new Error(String(r.status)))))))
        .then(() => process.exit(0), () => process.exit(1));'
    ;;
  *)
    echo "usage: cairn api|mcp-gateway|worker|migrate|keys-rotate|integrity|healthcheck (got: $app)" >&2
    exit 64
    ;;
esac
