#!/usr/bin/env bash
# `npm run deploy:check`: everything that proves the delivery artefacts, locally and in CI.
#  1. the pinned helm and kustomize and the Kubernetes schemas (scripts/install-deploy-tools.sh);
#  2. the deploy specs (deploy/test, jest): helm lint --strict and helm template of the defaults and
#     every deploy/helm/ci-values set, kustomize build of every overlay, strict schema validation of
#     every object, policy rules, config parity and boot with the rendered environment, compose and
#     Dockerfile lint, and the image recipe carried out without Docker.
# Needs `npm run build` first (the boot checks start the built apps); PostgreSQL and Redis come
# from jest's global setup like `npm test`. Extra arguments go to jest (e.g. -t 'kustomize').
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deploy-tools.sh
[[ -f dist/apps/api/src/main.js ]] || { echo "[deploy-check] run npm run build first" >&2; exit 2; }
exec npx jest -c deploy/jest.config.js "$@"
