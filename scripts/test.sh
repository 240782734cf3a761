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
# Two at a time, as this machine has two cores: every package's suite already runs its files in
# parallel, and ten suites at once (turbo's default) starved timing-bound tests of CPU.
turbo run test --continue --summarize --concurrency=2 "$@"
status=$?
node scripts/test-summary.ts || status=1
exit "$status"
