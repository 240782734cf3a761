# shellcheck shell=bash
# Sourced (not executed) by ./dev and .ci/run: puts a Node >= 22.12 and pnpm 10.34.9 first on PATH.
# When the machine's node is older, Node 24 is installed from the npm registry (the `node` package
# ships the real binary) into .tools/, which git ignores. Nothing is fetched from any other host.
HALLMARK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HALLMARK_NODE_VERSION="$(tr -d 'v \n' < "$HALLMARK_ROOT/.nvmrc")"
HALLMARK_PNPM_VERSION="10.34.9"
HALLMARK_TOOLS="$HALLMARK_ROOT/.tools"

hallmark_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! hallmark_node_ok; then
  if [ ! -x "$HALLMARK_TOOLS/node_modules/node/bin/node" ]; then
    echo "bootstrap: node $(node -v 2>/dev/null || echo missing) is older than 22.12; installing Node $HALLMARK_NODE_VERSION from the npm registry into .tools/" >&2
    npm install --silent --no-audit --no-fund --prefix "$HALLMARK_TOOLS" "node@$HALLMARK_NODE_VERSION" >&2 || return 1
  fi
  export PATH="$HALLMARK_TOOLS/node_modules/node/bin:$PATH"
fi

if [ "$(pnpm --version 2>/dev/null)" != "$HALLMARK_PNPM_VERSION" ]; then
  if [ ! -x "$HALLMARK_TOOLS/pnpm/node_modules/.bin/pnpm" ]; then
    echo "bootstrap: installing pnpm $HALLMARK_PNPM_VERSION from the npm registry into .tools/" >&2
    npm install --silent --no-audit --no-fund --prefix "$HALLMARK_TOOLS/pnpm" "pnpm@$HALLMARK_PNPM_VERSION" >&2 || return 1
  fi
  export PATH="$HALLMARK_TOOLS/pnpm/node_modules/.bin:$PATH"
fi
export COREPACK_ENABLE_STRICT=0
