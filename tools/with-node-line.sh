#!/usr/bin/env bash
# Runs a command on another Node line than the machine's, e.g.
#   tools/with-node-line.sh 26 node node_modules/vitest/vitest.mjs run packages/server/test
#   tools/with-node-line.sh 24.18.1 …   (an exact version works too)
#
# - The Node binary comes from the npm registry: `node-<platform>-<arch>@MAJOR`, the package
#   that `npx -y node@MAJOR` installs under the hood. It is installed into a cache of its own
#   (and never touched by npm again) because it also carries that line's C headers, which the
#   native build below needs, and npx's cache drops them on its next run.
# - better-sqlite3 is a native module built for one Node ABI. Its build for the requested
#   line is made once (from the sources in its package, against those headers, in a scratch
#   copy) and kept in a cache keyed by better-sqlite3's and Node's versions; it is swapped
#   into the workspace for the command and the original build is put back afterwards,
#   whatever the command's outcome, so the machine's own Node keeps working.
# - `node` on the command's PATH is the requested line, so child processes (`serve`, the CLI)
#   run on it too.
set -euo pipefail

line="${1:?usage: with-node-line.sh MAJOR[.MINOR.PATCH] COMMAND...}"
shift
cd "$(dirname "$0")/.."

cache="${XDG_CACHE_HOME:-$HOME/.cache}/ridequote"
platform="$(node -p 'process.platform + "-" + process.arch')"
prefix="$cache/node-$line"
headers="$prefix/node_modules/node-$platform"
node_bin="$headers/bin/node"
if [[ ! -x "$node_bin" || ! -f "$headers/include/node/node.h" ]]; then
  echo "== with-node-line: installing node-$platform@$line from the npm registry"
  rm -rf "$prefix"
  npm install --no-save --no-package-lock --prefix "$prefix" "node-$platform@$line" > /dev/null
fi
abi="$("$node_bin" -p process.versions.modules)"
version="$("$node_bin" --version)"

# better-sqlite3 as @effect/sql-sqlite-node resolves it (the copy the tests load).
bsq="$(node -p 'const m = require("node:module"); const p = require("node:path");
  const sql = require.resolve("@effect/sql-sqlite-node/package.json", { paths: ["packages/storage-sqlite"] });
  p.dirname(m.createRequire(sql).resolve("better-sqlite3/package.json"))')"
bsq_version="$(node -p "require('$bsq/package.json').version")"
binary="$bsq/build/Release/better_sqlite3.node"

# Keyed by the exact Node version, not only its ABI: the build compiles code from that
# version's headers (two 24.x releases share ABI 137 but differ in node_object_wrap.h).
cached="$cache/native/better-sqlite3-$bsq_version-node-$version-$platform.node"
if [[ ! -f "$cached" ]]; then
  echo "== with-node-line: building better-sqlite3 $bsq_version for Node $version (ABI $abi)"
  started=$SECONDS
  scratch="$(mktemp -d)"
  cp -r "$bsq" "$scratch/better-sqlite3"
  rm -rf "$scratch/better-sqlite3/build"
  node_gyp="$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
  [[ -f "$node_gyp" ]] || node_gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  (cd "$scratch/better-sqlite3" && "$node_bin" "$node_gyp" rebuild --release --nodedir="$headers" -j "$(nproc)" > build.log 2>&1) || {
    tail -40 "$scratch/better-sqlite3/build.log" >&2
    exit 1
  }
  mkdir -p "$cache/native"
  cp "$scratch/better-sqlite3/build/Release/better_sqlite3.node" "$cached.tmp" && mv "$cached.tmp" "$cached"
  rm -rf "$scratch"
  echo "== with-node-line: built in $((SECONDS - started)) s"
fi

# Swapped by rename, never rewritten in place: a process that has the current build loaded
# keeps its copy intact.
put() { cp "$1" "$binary.swap" && mv -f "$binary.swap" "$binary"; }
original="$(mktemp)"
cp "$binary" "$original"
restore() {
  if [[ -f "$original" ]]; then put "$original" && rm -f "$original"; fi
}
trap restore EXIT
trap 'exit 130' INT TERM
put "$cached"

echo "== with-node-line: Node $version: $*"
PATH="$(dirname "$node_bin"):$PATH" "$@"
