#!/usr/bin/env bash
# Installs the Debian packages the tests use, only those missing (one apt-get update at most):
#   chromium         browser scans and the dashboard (Playwright launches it via executablePath;
#                    Playwright's own browser download is never used)
#   poppler-utils    pdftoppm / pdftotext read rendered PDF reports back
#   rsyslog          a real syslog receiver for the RFC 5424 / octet-counting interop test
# Idempotent and quiet when everything is there.
set -euo pipefail

need=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium fonts-liberation)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
[ -x /usr/sbin/rsyslogd ] || need+=(rsyslog)
[ ${#need[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "installed: ${need[*]}"
