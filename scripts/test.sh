#!/usr/bin/env bash
# `pnpm test`: every package's tests through turbo (cached when nothing changed), then one summary
# line over all packages, because turbo's own last line counts tasks, not tests.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bootstrap.sh
source scripts/bootstrap.sh
# Stale reports must not count: turbo restores the real ones from its cache on a hit. The run
# summary (--summarize, .turbo/runs) tells the test summary which test tasks ran and how they ended.
rm -rf apps/*/reports packages/*/reports .turbo/runs
turbo run test --continue --summarize "$@"
status=$?
node scripts/test-summary.ts || status=1
exit "$status"
