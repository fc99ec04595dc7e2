#!/usr/bin/env bash
# Schemathesis (the OpenAPI fuzzer, from PyPI) in a virtualenv under .infra/ (git-ignored),
# installed once and then reused: prints the path of its `st` command. The version is pinned so
# a run's cases depend only on the seed. Needs python3 with venv; pip's cache makes a reinstall quick.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.32.5
venv=.infra/schemathesis-$VERSION
# the marker is written last: an install that was interrupted is started over
if [ ! -f "$venv/.installed" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2
  touch "$venv/.installed"
fi
echo "$PWD/$venv/bin/st"
