#!/usr/bin/env bash
# Debian packages the tests drive, installed when missing (as root, or through sudo): Chromium
# for the console's browser tests (/usr/bin/chromium, never a downloaded browser), SoftHSM2,
# the PKCS#11 token in software the HSM signing tests use, Prometheus for its promtool, which
# checks and unit-tests the alert rules in infra/prometheus, and Redis's server and CLI, which
# the Sentinel and Cluster tests start on ports of their own (the machine's running
# Redis usually brought them), and FFmpeg, which the video mark's tests drive as a child process
# to decode and encode raw frames (never an npm wrapper that downloads a binary).
set -euo pipefail
# package:file that shows it is installed
needed=(chromium:/usr/bin/chromium softhsm2:/usr/lib/softhsm/libsofthsm2.so prometheus:/usr/bin/promtool
  redis-server:/usr/bin/redis-server redis-tools:/usr/bin/redis-cli ffmpeg:/usr/bin/ffmpeg)
missing=()
for entry in "${needed[@]}"; do
  [ -e "${entry#*:}" ] || missing+=("${entry%%:*}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test packages: ${missing[*]} missing and this is not a Debian-like system; install them there" >&2
  exit 1
fi
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
echo "test packages: installing Debian's ${missing[*]} for the tests" >&2
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
