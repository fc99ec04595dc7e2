#!/usr/bin/env bash
# Installs Debian's Chromium for the browser chat driver. Playwright's own browser
# downloads are never used: the driver launches this binary via executablePath.
# Idempotent: does nothing when the binary is already there.
set -euo pipefail

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM_PATH" ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
echo "chromium installed: $("$CHROMIUM_PATH" --version 2>/dev/null || echo "$CHROMIUM_PATH")"
