#!/usr/bin/env bash
# Installs the system services Cairn needs for `npm start` / `npm test`:
# PostgreSQL >= 15 with pgvector >= 0.8, and Redis >= 7; and, for the web console's browser
# tests, the distribution's chromium (/usr/bin/chromium; the tests never download a browser); and
# bubblewrap (bwrap), the OS sandbox `cairn exec` uses and its tests exercise; PgBouncer
# (/usr/sbin/pgbouncer), which the tests run in front of their PostgreSQL with
# CAIRN_TEST_PGBOUNCER=1 (the package's own service is kept stopped and disabled: tests start
# their own pgbouncer on a free port, and a system one on 6432 would only be in the way);
# and HAProxy (/usr/sbin/haproxy), the load balancer the replicas benchmark (bench/replicas) puts
# in front of two replicas of each app. The harness runs its own haproxy on free ports; the distribution's
# haproxy service is stopped and disabled so that nothing else holds a port; and gpg, which signs the
# chart in CI's supply-chain phase (scripts/supply-chain.sh).
# Debian/Ubuntu only.
# Idempotent: anything already present is left alone.
#
# Environment knobs (mainly for testing this script):
#   CAIRN_PG_MAJOR=N            use PostgreSQL major N instead of the highest installed one
#   CAIRN_PGVECTOR_FROM_SOURCE=1  build pgvector from source even if it looks present
#   CAIRN_DEPS_DRY_RUN=1        print privileged commands instead of running them
#   DESTDIR=/some/dir           honoured by pgvector's `make install` (staged install)
set -euo pipefail

readonly MIN_PG_MAJOR=15
readonly MIN_PGVECTOR=0.8
readonly SRC_LIST=/etc/apt/sources.list.d/cairn-trixie-src.sources
readonly DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
export DEBIAN_FRONTEND=noninteractive

say() { printf '[install-deps] %s\n' "$*"; }
die() { printf '[install-deps] ERROR: %s\n' "$1" >&2; exit "${2:-1}"; }

dry_run=${CAIRN_DEPS_DRY_RUN:-0}
as_root() {
  if [[ $dry_run == 1 ]]; then
    printf '[install-deps] would run: %s\n' "$*"
    return 0
  fi
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi
}

highest_pg_major() {
  local best=0 bin major
  for bin in /usr/lib/postgresql/*/bin/postgres; do
    [[ -x $bin ]] || continue
    major=${bin#/usr/lib/postgresql/}
    major=${major%%/*}
    [[ $major =~ ^[0-9]+$ ]] && ((major > best)) && best=$major
  done
  echo "$best"
}

pg_major() {
  if [[ -n ${CAIRN_PG_MAJOR:-} ]]; then echo "$CAIRN_PG_MAJOR"; else highest_pg_major; fi
}

# Prints the default_version from vector.control for major $1, or nothing if absent.
pgvector_version() {
  local control=/usr/share/postgresql/$1/extension/vector.control
  [[ -f $control ]] || return 0
  sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$control"
}

version_ge() { dpkg --compare-versions "$1" ge "$2"; }

pgvector_ok() {
  local v
  v=$(pgvector_version "$1")
  [[ -n $v ]] && version_ge "$v" "$MIN_PGVECTOR"
}

redis_version() {
  command -v redis-server >/dev/null 2>&1 || return 0
  redis-server --version | sed -n 's/.* v=\([0-9.]*\).*/\1/p'
}

# --- Work out what is missing before asking for any privileges. -------------

if ! command -v apt-get >/dev/null 2>&1; then
  die "no apt-get found; this script only supports Debian/Ubuntu. Install by hand: PostgreSQL >= $MIN_PG_MAJOR (server binaries incl. initdb/pg_ctl/psql) with pgvector >= $MIN_PGVECTOR, and Redis >= 7 (redis-server)." 2
fi

major=$(pg_major)
need_pg=0 need_vector=0 need_redis=0 need_chromium=0 need_bwrap=0 need_pgbouncer=0 need_haproxy=0 need_gpg=0
if ((major < MIN_PG_MAJOR)) || [[ ! -x /usr/lib/postgresql/$major/bin/postgres ]]; then need_pg=1; fi
if [[ ${CAIRN_PGVECTOR_FROM_SOURCE:-0} == 1 ]] || ((need_pg)) || ! pgvector_ok "$major"; then need_vector=1; fi
if ! command -v redis-server >/dev/null 2>&1; then need_redis=1; fi
if [[ ! -x /usr/bin/chromium ]]; then need_chromium=1; fi
if ! command -v bwrap >/dev/null 2>&1; then need_bwrap=1; fi
if [[ ! -x /usr/sbin/pgbouncer ]]; then need_pgbouncer=1; fi
if [[ ! -x /usr/sbin/haproxy ]]; then need_haproxy=1; fi
if ! command -v gpg >/dev/null 2>&1; then need_gpg=1; fi

haproxy_version() { /usr/sbin/haproxy -v 2>/dev/null | sed -n '1s/^HAProxy version \([^ ]*\).*/\1/p'; }

if ((!need_pg && !need_vector && !need_redis && !need_chromium && !need_bwrap && !need_pgbouncer && !need_haproxy && !need_gpg)); then
  say "PostgreSQL $major: present ($(/usr/lib/postgresql/"$major"/bin/postgres --version))"
  say "pgvector $(pgvector_version "$major") for PostgreSQL $major: present"
  say "redis-server $(redis_version): present"
  say "chromium: present"
  say "bwrap: present"
  say "pgbouncer: present ($(/usr/sbin/pgbouncer --version | head -n1))"
  say "haproxy $(haproxy_version): present"
  say "gpg: present"
  exit 0
fi

if [[ $(id -u) -ne 0 && $dry_run != 1 ]] && ! sudo -n true >/dev/null 2>&1; then
  missing=()
  ((need_pg)) && missing+=("PostgreSQL >= $MIN_PG_MAJOR server (apt package: postgresql${CAIRN_PG_MAJOR:+-$CAIRN_PG_MAJOR})")
  if ((need_vector)); then
    if ((need_pg)); then missing+=("pgvector >= $MIN_PGVECTOR (apt: postgresql-${CAIRN_PG_MAJOR:-<major>}-pgvector, or built from source)")
    else missing+=("pgvector >= $MIN_PGVECTOR for PostgreSQL $major (apt: postgresql-$major-pgvector, or built from source)"); fi
  fi
  ((need_redis)) && missing+=("redis-server (apt package: redis-server)")
  ((need_chromium)) && missing+=("chromium, for the web console's browser tests (apt package: chromium)")
  ((need_bwrap)) && missing+=("bubblewrap, the sandbox of cairn exec (apt package: bubblewrap)")
  ((need_pgbouncer)) && missing+=("pgbouncer, for the tests through a transaction-mode pooler (apt package: pgbouncer)")
  ((need_haproxy)) && missing+=("HAProxy, for the replicas benchmark (apt package: haproxy)")
  ((need_gpg)) && missing+=("gpg, to sign the chart in CI (apt package: gnupg)")
  {
    echo "[install-deps] missing system dependencies:"
    printf '  - %s\n' "${missing[@]}"
    echo "[install-deps] root privileges are needed to install them (sudo -n is not available). Run:"
    echo "  sudo $0"
  } >&2
  exit 2
fi

# --- apt helpers: update only when the index cannot satisfy a request. -------

apt_updated=0
apt_update() {
  say "running apt-get update"
  as_root apt-get update -qq
  apt_updated=1
}

# A missing candidate only means something if the index has been fetched at all
# (slim container images ship with empty lists).
apt_lists_present() { compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; }

apt_candidate() {
  apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)' || true
}

apt_install() {
  local pkg
  for pkg in "$@"; do
    if [[ -z $(apt_candidate "$pkg") ]] && ((!apt_updated)) && ! apt_lists_present; then apt_update; break; fi
  done
  if ! as_root apt-get install -y -qq --no-install-recommends "$@"; then
    ((apt_updated)) && return 1
    apt_update
    as_root apt-get install -y -qq --no-install-recommends "$@"
  fi
}

# --- PostgreSQL --------------------------------------------------------------

if ((need_pg)); then
  # An explicit CAIRN_PG_MAJOR asks for that exact version, not the distro default.
  pg_pkg=postgresql${CAIRN_PG_MAJOR:+-$CAIRN_PG_MAJOR}
  say "installing PostgreSQL (apt package: $pg_pkg)"
  apt_install "$pg_pkg"
  major=$(pg_major)
  if [[ $dry_run != 1 ]] && ((major < MIN_PG_MAJOR)); then
    die "the distribution's PostgreSQL is $major, but >= $MIN_PG_MAJOR is required; add the PGDG apt repository (https://wiki.postgresql.org/wiki/Apt) and install postgresql-$MIN_PG_MAJOR"
  fi
  say "PostgreSQL $major: installed"
  pgvector_ok "$major" && [[ ${CAIRN_PGVECTOR_FROM_SOURCE:-0} != 1 ]] && need_vector=0
else
  say "PostgreSQL $major: present"
fi

# --- pgvector ----------------------------------------------------------------

src_version() {
  apt-cache showsrc pgvector 2>/dev/null | sed -n 's/^Version: *//p' | sort -V | tail -n1
}
src_version_ok() {
  local v
  v=$(src_version)
  [[ -n $v ]] && version_ge "$v" "$MIN_PGVECTOR"
}

build_pgvector_from_source() {
  local pg_config=/usr/lib/postgresql/$major/bin/pg_config
  say "building pgvector for PostgreSQL $major from Debian trixie's source package"
  if [[ ! -f $DEBIAN_KEYRING ]]; then
    # Ubuntu does not ship Debian's archive key by default.
    apt_install debian-archive-keyring
  fi
  if src_version_ok; then
    say "using already configured deb-src for pgvector $(src_version)"
  elif [[ ! -f $SRC_LIST ]]; then
    say "adding deb-src source $SRC_LIST"
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: trixie' \
      'Components: main' "Signed-By: $DEBIAN_KEYRING" | as_root tee "$SRC_LIST" >/dev/null
    apt_update
  elif ((!apt_updated)); then
    apt_update
  fi
  say "installing build dependencies: postgresql-server-dev-$major build-essential dpkg-dev"
  apt_install "postgresql-server-dev-$major" build-essential dpkg-dev

  local work
  work=$(mktemp -d -t cairn-pgvector.XXXXXX)
  # shellcheck disable=SC2064 # expand $work now, the variable is local
  trap "rm -rf '$work'" EXIT
  if [[ $dry_run == 1 ]]; then
    say "would run (in $work): apt-get source pgvector; make PG_CONFIG=$pg_config OPTFLAGS=; make install"
    return 0
  fi
  (
    cd "$work"
    # _apt cannot write into a 0700 temp dir; downloading as the caller is fine.
    apt-get source -qq pgvector 2>&1 | grep -v 'unsandboxed' || true
    src=$(find . -maxdepth 1 -mindepth 1 -type d -name 'pgvector-*' | head -n1)
    [[ -n $src ]] || die "apt-get source pgvector did not produce a source tree"
    cd "$src"
    # OPTFLAGS="" keeps -march=native out, so the binary runs on any CPU of this arch.
    make -s PG_CONFIG="$pg_config" OPTFLAGS=""
    as_root make -s PG_CONFIG="$pg_config" OPTFLAGS="" install
  )
  rm -rf "$work"
  trap - EXIT
}

if ((need_vector)); then
  pkg=postgresql-$major-pgvector
  cand=$(apt_candidate "$pkg")
  if [[ -z $cand ]] && ((!apt_updated)) && ! apt_lists_present; then apt_update; cand=$(apt_candidate "$pkg"); fi
  if [[ ${CAIRN_PGVECTOR_FROM_SOURCE:-0} != 1 && -n $cand ]] && version_ge "$cand" "$MIN_PGVECTOR" \
    && say "installing pgvector (apt package: $pkg $cand)" && as_root apt-get install -y -qq "$pkg"; then
    say "pgvector for PostgreSQL $major: installed from apt ($pkg)"
  else
    [[ -n $cand ]] && ! version_ge "$cand" "$MIN_PGVECTOR" && say "apt's $pkg is $cand (< $MIN_PGVECTOR)"
    build_pgvector_from_source
    say "pgvector for PostgreSQL $major: installed from source"
  fi
else
  say "pgvector $(pgvector_version "$major") for PostgreSQL $major: present"
fi

# --- Redis -------------------------------------------------------------------

if ((need_redis)); then
  say "installing Redis (apt package: redis-server)"
  apt_install redis-server
  say "redis-server: installed"
else
  say "redis-server $(redis_version): present"
fi

# --- Chromium (the web console's browser tests) --------------------------------

if ((need_chromium)); then
  say "installing Chromium (apt package: chromium)"
  apt_install chromium
  say "chromium: installed"
else
  say "chromium: present"
fi

# --- bubblewrap (cairn exec's OS sandbox; its tests run inside it when it works) --

if ((need_bwrap)); then
  say "installing bubblewrap (apt package: bubblewrap)"
  apt_install bubblewrap
  say "bwrap: installed"
else
  say "bwrap: present"
fi

# --- PgBouncer (the tests through a transaction-mode pooler: CAIRN_TEST_PGBOUNCER=1) ------

# The package enables and starts a pgbouncer service on 127.0.0.1:6432. Tests start their own
# on a free port, so the system one is kept from starting (policy-rc.d answers 101, "action
# forbidden", to the package's maintainer scripts) and disabled for later boots.
install_pgbouncer() {
  local policy=/usr/sbin/policy-rc.d ours=0
  if [[ $dry_run != 1 && ! -e $policy ]]; then
    printf '#!/bin/sh\n# Written by Cairn install-deps.sh while installing pgbouncer.\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod 755 "$policy"
    ours=1
  fi
  local status=0
  apt_install pgbouncer || status=$?
  ((ours)) && as_root rm -f "$policy"
  return "$status"
}

stop_system_pgbouncer() {
  if command -v systemctl >/dev/null 2>&1; then
    # `disable` edits unit links, so it works without a running systemd (containers) too.
    as_root systemctl disable pgbouncer.service >/dev/null 2>&1 || true
    [[ -d /run/systemd/system ]] && { as_root systemctl stop pgbouncer.service >/dev/null 2>&1 || true; }
  fi
  if command -v update-rc.d >/dev/null 2>&1; then
    as_root update-rc.d pgbouncer disable >/dev/null 2>&1 || true
  fi
  if [[ ! -d /run/systemd/system && -x /etc/init.d/pgbouncer ]]; then
    as_root /etc/init.d/pgbouncer stop >/dev/null 2>&1 || true
  fi
}

if ((need_pgbouncer)); then
  say "installing PgBouncer (apt package: pgbouncer; its system service is kept stopped)"
  install_pgbouncer
  stop_system_pgbouncer
  say "pgbouncer: installed"
else
  say "pgbouncer: present"
fi

# --- HAProxy (the replicas benchmark's load balancer; bench/replicas) -------------

if ((need_haproxy)); then
  say "installing HAProxy (apt package: haproxy)"
  apt_install haproxy
  # The package starts its own service where an init system runs; the benchmark starts haproxy
  # itself, on free ports, so the system one is stopped and kept from starting again.
  if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
    as_root systemctl disable --now haproxy >/dev/null 2>&1 || true
  elif [[ -x /etc/init.d/haproxy ]]; then
    as_root /etc/init.d/haproxy stop >/dev/null 2>&1 || true
  fi
  say "haproxy: installed"
else
  say "haproxy $(haproxy_version): present"
fi

# --- gpg (CI signs the chart with a throwaway key: scripts/supply-chain.sh) --------

if ((need_gpg)); then
  say "installing gnupg (apt package: gnupg)"
  apt_install gnupg
  say "gpg: installed"
else
  say "gpg: present"
fi
