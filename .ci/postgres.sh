#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for gobot's tests.
#
#   .ci/postgres.sh start DIR   makes a cluster in DIR (created if missing),
#                               starts it on a free loopback port and prints
#                               its DSN as the last line of output
#   .ci/postgres.sh stop DIR    stops it (DIR may then be removed)
#
# initdb and pg_ctl refuse to run as root, so when run as root they run as
# the `postgres` user (Debian's package makes it). The cluster trusts local
# connections: it is for tests only and listens on 127.0.0.1 alone.
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

bindir=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bindir="$d"
done
if [ -z "$bindir" ]; then
  if command -v initdb >/dev/null 2>&1; then
    bindir="$(dirname "$(command -v initdb)")"
  else
    echo "postgres.sh: PostgreSQL server binaries not found (Debian: apt-get install -y postgresql)" >&2
    exit 3
  fi
fi

as_pg() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
start)
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
    # the postgres user must be able to reach DIR through its parents
    p="$dir"
    while [ "$p" != "/" ]; do
      p="$(dirname "$p")"
      chmod o+x "$p" 2>/dev/null || true
    done
  fi
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
    echo $((20000 + RANDOM % 20000)))"
  as_pg "$bindir/initdb" -D "$dir/data" -U gobot --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
  }
  echo "$port" >"$dir/port"
  echo "postgres://gobot@127.0.0.1:$port/postgres?sslmode=disable"
  ;;
stop)
  if [ -d "$dir/data" ]; then
    as_pg "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac
