#!/usr/bin/env bash
# CI's "supply chain" phase (after the build and the deploy tools): what a release publishes
# beside the image, produced and verified as an operator would.
#  1. the SBOM: `npm run sbom` (dist/sbom.cdx.json, CycloneDX), checked against the CycloneDX JSON
#     schema and package-lock.json's production packages (tools/supply-chain/verify-sbom.ts);
#  2. the chart with provenance: a throwaway OpenPGP key (no passphrase, its own GNUPGHOME,
#     deleted after), scripts/package-chart.sh (helm package --sign, then helm verify).
# Needs `npm run build` first and .tools/bin/helm (scripts/install-deploy-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

[[ -f dist/tools/supply-chain/verify-sbom.js ]] || { echo "[supply-chain] run npm run build first" >&2; exit 2; }
npm run -s sbom
node dist/tools/supply-chain/verify-sbom.js dist/sbom.cdx.json

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GNUPGHOME=$work/gnupg
mkdir -m 700 "$GNUPGHOME"
name='Cairn CI chart signing'
gpg=(gpg --batch --quiet --pinentry-mode loopback --passphrase '')
"${gpg[@]}" --quick-generate-key "$name <chart-signing@cairn.invalid>" rsa3072 sign 1d 2>/dev/null
# helm reads the legacy keyring format: the exported keys, not GnuPG 2's keybox.
"${gpg[@]}" --export-secret-keys "$name" >"$work/secring.gpg"
"${gpg[@]}" --export "$name" >"$work/pubring.gpg"
scripts/package-chart.sh --key "$name" --keyring "$work/secring.gpg" --verify-keyring "$work/pubring.gpg" \
  --out "$work/chart"
