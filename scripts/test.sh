#!/usr/bin/env bash
# `pnpm test`: every package's tests through turbo (cached when nothing changed), then one summary
# line over all packages, because turbo's own last line counts tasks, not tests.
#
# Arguments go to turbo (e.g. `pnpm test --filter=@hallmark/db`), and then one lane runs.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bootstrap.sh
source scripts/bootstrap.sh
# Stale reports must not count: turbo restores the real ones from its cache on a hit. The run
# summaries (--summarize, .turbo/runs) tell the test summary which test tasks ran and how they ended.
rm -rf apps/*/reports packages/*/reports .turbo/runs

# Everything is built first. Left to one turbo run, builds waited behind long test tasks for the
# two slots, and the API's suite, which needs nearly every build, started last.
if ! turbo run build --concurrency=2 --output-logs=errors-only; then
  echo "test: the build failed (above); no test ran" >&2
  exit 1
fi

# Then two lanes at once, which keep this machine's two cores busy without starving either: the
# API's suite (the longest: its files mostly wait on the service processes they start, so it runs
# several files at a time, see apps/api/vitest.config.ts), and every other package's suite one after
# another. `--only`: the builds are done, and a second restore of their outputs must not rewrite
# a dist/ that the other lane's tests are reading.
lane() { turbo run test --only --continue --summarize "$@"; }
if [ $# -gt 0 ]; then
  lane --concurrency=2 "$@"
  status=$?
else
  lane --filter=@hallmark/api &
  api_lane=$!
  lane --filter='!@hallmark/api' --concurrency=1
  status=$?
  wait "$api_lane" || status=1
fi
node scripts/test-summary.ts || status=1
exit "$status"
