#!/usr/bin/env bash
# A real single-node Apache Kafka (KRaft, no ZooKeeper, no Docker) for the distributed
# deployment and the Kafka contract tests. The broker and its runtime jars come from Maven
# Central once (infra/kafka/pom.xml) and are cached under .infra/kafka/libs.
#
#   infra/kafka.sh start    resolve (once), format (once), start, wait; prints `export KAFKA_BROKERS=...`
#   infra/kafka.sh stop     graceful (bounded), then kill
#   infra/kafka.sh status   exit 0 when the broker is running, 3 when it is not
#
# Idempotent: `start` on a running broker only prints the export line. Quiet: all broker output
# goes to .infra/kafka/logs/. Overrides: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093),
# KAFKA_HEAP_OPTS (-Xmx512m -Xms128m), KAFKA_START_TIMEOUT (90 s), KAFKA_STOP_TIMEOUT (30 s).
# KAFKA_INSTANCE=name runs a second, separate broker (state under .infra/kafka-name, jars
# shared; give it its own ports): a test that restarts a broker uses one, so it never
# disturbs the tests running beside it on the shared one.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
POM="$ROOT/infra/kafka/pom.xml"
STATE="$ROOT/.infra/kafka${KAFKA_INSTANCE:+-$KAFKA_INSTANCE}"
LIBS="$ROOT/.infra/kafka/libs"
DATA="$STATE/data"
LOGS="$STATE/logs"
PIDFILE="$STATE/kafka.pid"
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
HEAP="${KAFKA_HEAP_OPTS:--Xmx512m -Xms128m}"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

die() { echo "kafka.sh: $*" >&2; exit 1; }

[[ "${KAFKA_INSTANCE:-}" =~ ^[a-z0-9-]*$ ]] || die "KAFKA_INSTANCE must be lowercase letters, digits and dashes"

kafka_version() { sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$POM"; }

# The jars are resolved once per Kafka version; the marker is written only after a full copy,
# so an interrupted download is retried instead of leaving a half classpath.
resolve() {
  local marker="$LIBS/.resolved-$(kafka_version)"
  [[ -f "$marker" ]] && return 0
  # instances share the jars: one resolves at a time, the others find the marker afterwards
  mkdir -p "$(dirname "$LIBS")"
  exec 8>"$(dirname "$LIBS")/.resolve.lock"
  flock -w 600 8 || die "another kafka.sh is still resolving the jars"
  [[ -f "$marker" ]] && { exec 8>&-; return 0; }
  command -v mvn >/dev/null || die "Maven (mvn) is needed to fetch the broker from Maven Central"
  command -v java >/dev/null || die "a Java 11+ runtime is needed to run the broker"
  rm -rf "$LIBS" && mkdir -p "$LIBS"
  mvn -q -B -f "$POM" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$LIBS" >"$STATE/mvn.log" 2>&1 \
    || { tail -n 20 "$STATE/mvn.log" >&2; die "resolving Kafka $(kafka_version) failed (see $STATE/mvn.log)"; }
  touch "$marker"
  exec 8>&-
}

write_config() {
  mkdir -p "$DATA" "$LOGS"
  cat >"$STATE/server.properties" <<EOF
# written by infra/kafka.sh: a single KRaft node that is both broker and controller
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DATA
# one node: internal topics cannot have more replicas than brokers, or groups never find a coordinator
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# topics are created on purpose (Bus.ensureTopics) with their partition count, never by a typo
auto.create.topics.enable=false
num.partitions=1
default.replication.factor=1
log.retention.hours=168
EOF
  cat >"$STATE/log4j.properties" <<EOF
# written by infra/kafka.sh: broker logs go to files, never to the caller's terminal
log4j.rootLogger=INFO, server
log4j.appender.server=org.apache.log4j.RollingFileAppender
log4j.appender.server.File=$LOGS/server.log
log4j.appender.server.MaxFileSize=10MB
log4j.appender.server.MaxBackupIndex=3
log4j.appender.server.layout=org.apache.log4j.PatternLayout
log4j.appender.server.layout.ConversionPattern=[%d] %p %m (%c)%n
# the start/stop milestones alone, in a file kafka.sh truncates before each start to see this start finish
log4j.appender.lifecycle=org.apache.log4j.FileAppender
log4j.appender.lifecycle.File=$LOGS/lifecycle.log
log4j.appender.lifecycle.layout=org.apache.log4j.PatternLayout
log4j.appender.lifecycle.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO, lifecycle
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.org.apache.kafka.storage.internals.log=WARN
EOF
}

java_args() {
  # shellcheck disable=SC2206 # the heap options are a word list on purpose
  JAVA_ARGS=(java $HEAP -XX:+UseG1GC -Djava.awt.headless=true
    -Dlog4j.configuration="file:$STATE/log4j.properties" -Dkafka.logs.dir="$LOGS"
    -cp "$LIBS/*" "$@")
}

java_cmd() { java_args "$@"; "${JAVA_ARGS[@]}"; }

# Storage is formatted once; the cluster id is fixed at that moment and kept beside the data.
format_once() {
  [[ -f "$DATA/meta.properties" ]] && return 0
  if [[ ! -s "$STATE/cluster-id" ]]; then
    java_cmd kafka.tools.StorageTool random-uuid 2>/dev/null >"$STATE/cluster-id.tmp"
    mv "$STATE/cluster-id.tmp" "$STATE/cluster-id"
  fi
  # static quorum (controller.quorum.voters): 3.9 formats it with -t alone; --standalone is
  # for the dynamic quorum (controller.quorum.bootstrap.servers) and refuses a voters list
  java_cmd kafka.tools.StorageTool format -t "$(cat "$STATE/cluster-id")" \
    -c "$STATE/server.properties" >"$LOGS/format.log" 2>&1 \
    || { cat "$LOGS/format.log" >&2; die "formatting the KRaft storage failed"; }
}

# Running means: the pid in the pid file is alive and is our broker (not a recycled pid).
running_pid() {
  [[ -f "$PIDFILE" ]] || return 1
  local pid; pid="$(cat "$PIDFILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null \
    && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka $STATE/server.properties" \
    && echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Answers: the port accepts connections and this start logged that the broker finished starting
# (lifecycle.log is emptied before each launch; server.log rotates, so it cannot tell starts apart).
wait_ready() {
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT))
  while ((SECONDS < deadline)); do
    kill -0 "$pid" 2>/dev/null || { tail -n 30 "$LOGS/server.log" "$LOGS/stdout.log" >&2 2>/dev/null; die "the broker exited while starting"; }
    if port_open "$PORT" && grep -q 'Kafka Server started' "$LOGS/lifecycle.log" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  die "the broker did not answer within ${START_TIMEOUT}s (see $LOGS/server.log)"
}

start() {
  if pid="$(running_pid)"; then
    echo "export KAFKA_BROKERS=127.0.0.1:$PORT"
    return 0
  fi
  rm -f "$PIDFILE"
  port_open "$PORT" && die "127.0.0.1:$PORT is taken by another process"
  resolve
  write_config
  format_once
  : >"$LOGS/lifecycle.log"
  # its own session, so the broker outlives the shell (and the test run) that started it;
  # the pid is written from inside, since setsid may fork
  rm -f "$PIDFILE"
  java_args kafka.Kafka "$STATE/server.properties"
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PIDFILE" "${JAVA_ARGS[@]}" \
    </dev/null >"$LOGS/stdout.log" 2>&1 9>&- &
  local tries=50
  while [[ ! -s "$PIDFILE" ]] && ((tries-- > 0)); do sleep 0.1; done
  [[ -s "$PIDFILE" ]] || die "the broker process did not start"
  wait_ready "$(cat "$PIDFILE")"
  echo "export KAFKA_BROKERS=127.0.0.1:$PORT"
}

stop() {
  local pid
  pid="$(running_pid)" || { rm -f "$PIDFILE"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "kafka.sh: graceful stop took over ${STOP_TIMEOUT}s, killing $pid" >&2
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$PIDFILE"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    echo "kafka $(kafka_version) running (pid $pid) on 127.0.0.1:$PORT"
  else
    echo "kafka stopped"
    return 3
  fi
}

mkdir -p "$STATE"
# one start/stop at a time: several engineers and test runs share this checkout's broker
exec 9>"$STATE/.lock"
flock -w 180 9 || die "another kafka.sh is still running"

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: infra/kafka.sh start|stop|status" >&2; exit 2 ;;
esac
