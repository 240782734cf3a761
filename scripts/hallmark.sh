#!/usr/bin/env bash
# `pnpm hallmark <command>`: runs the CLI from the repo root. The build is refreshed first
# (a turbo cache hit when nothing changed); its output is shown only when it fails, so
# `pnpm --silent hallmark ...` prints nothing but the command's own output.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bootstrap.sh
source "$root/scripts/bootstrap.sh"
# HALLMARK_CLI_PREBUILT=1 skips the refresh when the caller already built (the CLI's own tests
# run inside a turbo run, which must not be re-entered).
if [ "${HALLMARK_CLI_PREBUILT:-}" != "1" ]; then
  log="$(mktemp)"
  trap 'rm -f "$log"' EXIT
  if ! (cd "$root" && "$root/node_modules/.bin/turbo" run build --filter=@hallmark/cli... --output-logs=errors-only >"$log" 2>&1); then
    cat "$log" >&2
    exit 1
  fi
fi
# INIT_CWD is where the user ran pnpm, so relative file arguments mean what they expect.
cd "${INIT_CWD:-$PWD}"
exec node "$root/apps/cli/dist/hallmark.js" "$@"
