#!/usr/bin/env bash
# `findings gate` in a pipeline (issue 50): a demo server of $FINDINGS
# findings, and for one repository ($REPOSITORY) each run of
#   vs-primary      findings gate --ref $REF (against the primary branch:
#                   the names, the archived check, the primary branch's
#                   findings and the ref's, every state)
#   save-baseline   findings gate --ref $PRIMARY --save-baseline FILE
#   vs-baseline     findings gate --ref $REF --baseline FILE
# each with --summary, --junit and --sarif written, $RUNS times in turns.
# Printed: wall seconds and peak resident memory (GNU time) as
# min / median / max, against the target of every pipeline: under 2 s
# and 50 MB.
#
# Usage: benches/gate.sh                      (after `cargo build --release`)
# Environment: FINDINGS (default 100000), RUNS (5), REPOSITORY
#              (acme/payments-api), REF (feature/checkout-v2), PRIMARY
#              (main), FINDINGS_BIN.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${FINDINGS_BIN:-target/release/findings}
FINDINGS=${FINDINGS:-100000}
RUNS=${RUNS:-5}
REPOSITORY=${REPOSITORY:-acme/payments-api}
REF=${REF:-feature/checkout-v2}
PRIMARY=${PRIMARY:-main}

WORK=$(mktemp -d)
# shellcheck source=bench_lib.sh
. benches/bench_lib.sh
require time findings
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

declare -A SECS_OF KB_OF
NAMES=()
record() {
    [[ " ${NAMES[*]} " == *" $1 "* ]] || NAMES+=("$1")
    SECS_OF[$1]+="$SECS "
    KB_OF[$1]+="$KB "
}

# Runs the gate with ARGS; a pass (0) and a refusal (3) are outcomes, any
# other exit stops the bench.
gate() {
    local code=0
    FINDINGS_BASE_URL=$URL FINDINGS_DEPLOYMENT=$DEPLOYMENT FINDINGS_TOKEN=$TOKEN CI=true \
        timed "$BIN" gate --repository "$REPOSITORY" "$@" \
        --summary "$WORK/gate.md" --junit "$WORK/gate.xml" --sarif "$WORK/gate.sarif" \
        2>"$WORK/stderr" || code=$?
    if [ "$code" != 0 ] && [ "$code" != 3 ]; then
        echo "gate $*: exit $code" >&2
        cat "$WORK/stderr" >&2
        exit 1
    fi
    VERDICT=$(grep '^gate: ' "$WORK/stderr")
}

echo "gate: $FINDINGS findings, repository $REPOSITORY, ref $REF against $PRIMARY, $RUNS runs each"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), $(date -u +%Y-%m-%d)"
start_server "$FINDINGS"
for run in $(seq 1 "$RUNS"); do
    echo "run $run of $RUNS ..." >&2
    gate --ref "$REF"
    record "vs-primary"
    BASE_VERDICT=$VERDICT
    gate --ref "$PRIMARY" --save-baseline "$WORK/baseline.snap"
    record "save-baseline"
    gate --ref "$REF" --baseline "$WORK/baseline.snap"
    record "vs-baseline"
    BASELINE_VERDICT=$VERDICT
done
stop_server

echo "$BASE_VERDICT"
echo "$BASELINE_VERDICT"
echo "baseline: $(($(wc -c <"$WORK/baseline.snap") / 1024)) KB"
echo
printf '%-14s %-26s %s\n' "" "seconds (min/median/max)" "peak RSS MB (min/median/max)"
for name in "${NAMES[@]}"; do
    mb=()
    for kb in ${KB_OF[$name]}; do mb+=("$((kb / 1024))"); done
    printf '%-14s %-26s %s\n' "$name" "$(spread ${SECS_OF[$name]})" "$(spread "${mb[@]}")"
done
echo "target: under 2 s and 50 MB each"
