#!/usr/bin/env bash
# Runs a command with Node that satisfies package.json's engines (>= 22.15) and pnpm 10.34.9 first on PATH (see bootstrap.sh), so root
# scripts work even when pnpm was started by the machine's older Node.
set -euo pipefail
# shellcheck source=bootstrap.sh
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
exec "$@"
