#!/usr/bin/env bash
# Packages deploy/helm/cairn signed with the operator's OpenPGP key, then verifies the result:
#   scripts/package-chart.sh --key 'Cairn Releases' --keyring ~/.gnupg/secring.gpg [--out dist/chart]
#     [--passphrase-file FILE] [--verify-keyring PUBRING]
# writes <out>/cairn-<version>.tgz and its provenance file <out>/cairn-<version>.tgz.prov (the
# chart's sha256 and Chart.yaml, clear-signed), then runs `helm verify` on them. Helm reads the
# legacy keyring format: `gpg --export-secret-keys 'Cairn Releases' > secring.gpg` (and for users,
# `gpg --export 'Cairn Releases' > cairn-pubring.gpg`). deploy/helm/cairn/README.md says how users
# verify (helm verify / helm install --verify --keyring). Uses the pinned helm of .tools/bin
# (scripts/install-deploy-tools.sh) unless HELM names another.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
helm=${HELM:-$root/.tools/bin/helm}
key='' keyring='' out=$root/dist/chart passphrase_file='' verify_keyring=''

usage() {
  echo "usage: $0 --key NAME --keyring SECRING [--out DIR] [--passphrase-file FILE] [--verify-keyring PUBRING]" >&2
  exit 64
}
while (($#)); do
  case "$1" in
    --key) key=${2:-}; shift 2 ;;
    --keyring) keyring=${2:-}; shift 2 ;;
    --out) out=${2:-}; shift 2 ;;
    --passphrase-file) passphrase_file=${2:-}; shift 2 ;;
    --verify-keyring) verify_keyring=${2:-}; shift 2 ;;
    *) usage ;;
  esac
done
[[ -n $key && -n $keyring ]] || usage
[[ -f $keyring ]] || { echo "[package-chart] no keyring at $keyring (gpg --export-secret-keys '$key' > $keyring)" >&2; exit 2; }
[[ -x $helm ]] || { echo "[package-chart] $helm is missing: run scripts/install-deploy-tools.sh" >&2; exit 2; }

mkdir -p "$out"
args=(package "$root/deploy/helm/cairn" --destination "$out" --sign --key "$key" --keyring "$keyring")
[[ -n $passphrase_file ]] && args+=(--passphrase-file "$passphrase_file")
packaged=$("$helm" "${args[@]}")
chart=${packaged##*: }
[[ -f $chart && -f $chart.prov ]] || { echo "[package-chart] helm did not write $chart and $chart.prov: $packaged" >&2; exit 1; }
"$helm" verify "$chart" --keyring "${verify_keyring:-$keyring}"
echo "[package-chart] signed and verified: $chart ($chart.prov)"
