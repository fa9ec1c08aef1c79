#!/usr/bin/env bash
# Runs a command on another Node line than the machine's, e.g.
#   tools/with-node-line.sh 26 node node_modules/vitest/vitest.mjs run packages/server/test
#   tools/with-node-line.sh 24.19.0 …   (an exact version works too)
#
# - The Node binary comes from the npm registry: `node-<platform>-<arch>@VERSION`, the package
#   that `npx -y node@MAJOR` installs under the hood. A line (`24`) means its latest release,
#   asked of the registry on each call; without the registry, the newest cached one is used.
# - It is installed into a cache of its own (~/.cache/ridequote/node/VERSION; npx's cache is
#   pruned by npm at will). The cache keeps the KEEP (4) most recently used versions: older
#   ones are removed when a new one is installed, so a bumped "latest" does not pile up
#   ~200 MB per release.
# - Nothing in the workspace changes: the SQLite driver (libsql) is a Node-API binary that every
#   line loads as installed, so there is no per-line native build or swap any more.
# - `node` on the command's PATH is the requested line, so child processes (`serve`, the CLI)
#   run on it too.
set -euo pipefail

line="${1:?usage: with-node-line.sh MAJOR[.MINOR.PATCH] COMMAND...}"
shift
cd "$(dirname "$0")/.."

KEEP=4
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ridequote/node"
platform="$(node -p 'process.platform + "-" + process.arch')"
package="node-$platform"

# Caches of earlier versions of this script (one folder per line, plus better-sqlite3 builds).
rm -rf "$cache/../native" "$cache"/../node-[0-9]*

if [[ "$line" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  version="$line"
else
  # Every release of the line, as JSON (one string or a list), newest by version order.
  version="$(npm view "$package@$line" version --json 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | sort -V | tail -n 1 || true)"
  if [[ -z "$version" ]]; then
    version="$(ls "$cache" 2>/dev/null | grep -E "^$line\." | sort -V | tail -n 1 || true)"
    [[ -n "$version" ]] || { echo "with-node-line: cannot resolve Node $line (no registry, nothing cached)" >&2; exit 1; }
    echo "== with-node-line: registry not reachable, using the cached Node $version" >&2
  fi
fi

prefix="$cache/$version"
node_bin="$prefix/node_modules/$package/bin/node"
if [[ ! -x "$node_bin" ]]; then
  echo "== with-node-line: installing $package@$version from the npm registry" >&2
  mkdir -p "$cache"
  scratch="$(mktemp -d "$cache/.install.XXXXXX")"
  npm install --no-save --no-package-lock --prefix "$scratch" "$package@$version" > /dev/null
  chmod 755 "$scratch" # mktemp's 0700 would hide the binary from other users of the cache
  rm -rf "$prefix"
  mv "$scratch" "$prefix"
fi
touch "$prefix" # most recently used

# Bounded: the KEEP most recently used versions stay.
ls -dt "$cache"/[0-9]* 2>/dev/null | tail -n +$((KEEP + 1)) | while read -r stale; do
  echo "== with-node-line: removing the cached Node $(basename "$stale")" >&2
  rm -rf "$stale"
done

echo "== with-node-line: Node $("$node_bin" --version): $*" >&2
PATH="$(dirname "$node_bin"):$PATH" "$@"
