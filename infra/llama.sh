#!/usr/bin/env bash
# The runtime of the lab's real model: node-llama-cpp 3.21.1 (exact pin: later releases break
# `npm ci` here) with its CPU prebuilt binary for this platform only, installed into
# .infra/llama/ (git-ignored), a package of its own that the model's child process loads by path
# (apps/lab/src/model/smollm2.ts). It is not a dependency of the project: its optional GPU builds
# (CUDA, Vulkan: ~650 MB) would come with every `npm install`, for a 135M model run on the CPU by
# the tests. Idempotent: an install already there is a no-op. Run by infra/test.sh; prints where
# it is (`export GAUNTLET_LLAMA_DIR=...`, eval it as infra/smollm2.sh's output).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=3.21.1
DIR="${GAUNTLET_LLAMA_DIR:-$PWD/.infra/llama}"
# the CPU build's package: linux-x64, linux-arm64, mac-arm64-metal, mac-x64, win-x64...
PLATFORM=$(node -p "({ darwin: 'mac', win32: 'win' }[process.platform] ?? process.platform) + '-' + process.arch + (process.platform === 'darwin' && process.arch === 'arm64' ? '-metal' : '')")

installed() { node -e "process.exit(require('$DIR/node_modules/node-llama-cpp/package.json').version === '$VERSION' && require('fs').existsSync('$DIR/node_modules/@node-llama-cpp/$PLATFORM/package.json') ? 0 : 1)" 2>/dev/null; }

if ! installed; then
  mkdir -p "$DIR"
  cat > "$DIR/package.json" <<JSON
{
  "name": "gauntlet-llama-runtime",
  "private": true,
  "description": "node-llama-cpp for the Gauntlet lab's real model, CPU build only (infra/llama.sh)",
  "dependencies": { "node-llama-cpp": "$VERSION", "@node-llama-cpp/$PLATFORM": "$VERSION" }
}
JSON
  # --omit=optional: none of the GPU builds; --ignore-scripts: node-llama-cpp's postinstall would
  # look for a build to download, the prebuilt binary above needs nothing
  (cd "$DIR" && npm install --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error >&2) \
    || { echo "llama.sh: npm could not install node-llama-cpp $VERSION into $DIR" >&2; exit 1; }
  installed || { echo "llama.sh: node-llama-cpp $VERSION is not complete in $DIR" >&2; exit 1; }
fi
echo "export GAUNTLET_LLAMA_DIR=$DIR"
