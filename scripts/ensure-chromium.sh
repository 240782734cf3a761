#!/usr/bin/env bash
# The console's browser tests drive Debian's Chromium (/usr/bin/chromium), never a downloaded
# browser. Installs it from Debian's packages when missing; as root, or through sudo.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium: /usr/bin/chromium is missing and this is not a Debian-like system; install Chromium there" >&2
  exit 1
fi
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
echo "chromium: installing Debian's chromium for the console's browser tests" >&2
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version >&2
