# shellcheck shell=bash
# Sourced (not executed) by ./dev and .ci/run: puts a Node that satisfies package.json's `engines`
# (>= 22.15) and pnpm 10.34.9 first on PATH. When the machine's node is older, Node 24 is installed from the npm registry (the `node` package
# ships the real binary) into .tools/, which git ignores. Nothing is fetched from any other host,
# and npm's cache is preferred (--prefer-offline): a fresh clone on a machine that installed them
# before does not wait on the registry.
HALLMARK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HALLMARK_NODE_VERSION="$(tr -d 'v \n' < "$HALLMARK_ROOT/.nvmrc")"
HALLMARK_PNPM_VERSION="10.34.9"
HALLMARK_TOOLS="$HALLMARK_ROOT/.tools"

# The minimum is read from package.json's engines.node (">=X.Y"), the one place that states it.
hallmark_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e '
    const [min, have] = [require(process.argv[1]).engines.node.replace(">=", ""), process.versions.node]
      .map((v) => v.split(".").map(Number));
    const cmp = have[0] - min[0] || have[1] - min[1] || (have[2] ?? 0) - (min[2] ?? 0);
    process.exit(cmp >= 0 ? 0 : 1);' "$HALLMARK_ROOT/package.json"
}

if ! hallmark_node_ok; then
  if [ ! -x "$HALLMARK_TOOLS/node_modules/node/bin/node" ]; then
    echo "bootstrap: node $(node -v 2>/dev/null || echo missing) does not satisfy engines.node in package.json; installing Node $HALLMARK_NODE_VERSION from the npm registry into .tools/" >&2
    npm install --silent --no-audit --no-fund --prefer-offline --prefix "$HALLMARK_TOOLS" "node@$HALLMARK_NODE_VERSION" >&2 || return 1
  fi
  export PATH="$HALLMARK_TOOLS/node_modules/node/bin:$PATH"
fi

if [ "$(pnpm --version 2>/dev/null)" != "$HALLMARK_PNPM_VERSION" ]; then
  if [ ! -x "$HALLMARK_TOOLS/pnpm/node_modules/.bin/pnpm" ]; then
    echo "bootstrap: installing pnpm $HALLMARK_PNPM_VERSION from the npm registry into .tools/" >&2
    npm install --silent --no-audit --no-fund --prefer-offline --prefix "$HALLMARK_TOOLS/pnpm" "pnpm@$HALLMARK_PNPM_VERSION" >&2 || return 1
  fi
  export PATH="$HALLMARK_TOOLS/pnpm/node_modules/.bin:$PATH"
fi
export COREPACK_ENABLE_STRICT=0
