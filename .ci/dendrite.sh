#!/usr/bin/env bash
# Builds the Dendrite homeserver that chat/matrix's integration tests run
# against, into a cache outside the repository that later CI runs reuse, and
# prints the directory holding the binaries as its last line of output.
#
#   GOBOT_CACHE   cache root (default $HOME/.cache/gobot)
#
# Dendrite stays out of gobot's go.mod: its module is downloaded from the Go
# module proxy (`go install …@v0.15.2` does not work there because of its
# replace directives), copied somewhere writable and built in place.
set -euo pipefail

version=v0.15.2
module=github.com/element-hq/dendrite
cache="${GOBOT_CACHE:-$HOME/.cache/gobot}"
bin="$cache/dendrite-$version/bin"
tools=(dendrite generate-keys generate-config create-account)

have_all() {
  local t
  for t in "${tools[@]}"; do
    [ -x "$bin/$t" ] || return 1
  done
}

if have_all; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
src="$(mktemp -d "$cache/dendrite-src.XXXXXX")"
trap 'chmod -R u+w "$src" 2>/dev/null; rm -rf "$src"' EXIT

dir="$(cd "$cache" && go mod download -json "$module@$version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
  echo "dendrite.sh: go mod download did not report a module directory" >&2
  exit 1
fi
cp -R "$dir/." "$src/"
chmod -R u+w "$src"

echo "dendrite.sh: building Dendrite $version (cgo; a few minutes cold)" >&2
mkdir -p "$bin.tmp"
(
  cd "$src"
  export CGO_ENABLED=1 GOFLAGS=-mod=mod
  for t in "${tools[@]}"; do
    go build -trimpath -o "$bin.tmp/$t" "./cmd/$t"
  done
)
rm -rf "$bin"
mv "$bin.tmp" "$bin"
echo "$bin"
