#!/usr/bin/env bash
# This app beside its peers, on the same machine and the same findings
# (issue 28): a demo server of $FINDINGS findings, every one exported or
# read by
#   findings ndjson   findings issues --all --format ndjson --limit 1000
#   findings csv      findings issues --all --format csv (the file fzf and
#                     VisiData read below)
#   curl raw          curl alone fetching the same pages (the cursors found
#                     beforehand): the floor any client pays for the server
#                     and HTTP
#   curl + jq         a shell loop of curl and jq following the cursor, as
#                     a user's script would
#   fzf --filter      fzf filtering that CSV for $QUERY (one line a finding)
#   vd --batch        VisiData loading that CSV and saving it as TSV
# fzf and VisiData are run where installed (apt-get install -y fzf
# visidata), else said to be skipped. Each is run $RUNS times, in turns;
# printed: seconds and peak resident memory as min / median / max, and the
# ratio of each median to that of `findings ndjson`. The TUI's own figures
# (memory per loaded finding, `/` per keystroke) are benches/memory.rs and
# benches/render.rs.
#
# Usage: benches/peers.sh                     (after `cargo build --release`)
# Environment: FINDINGS (default 100000; 1000000 works: about 25 s per
#              export, 5 minutes per curl + jq run), RUNS (3), LIMIT (1000),
#              QUERY (fzf's query, default "payments sql"), SKIP (names
#              among "jq fzf vd" to leave out), FINDINGS_BIN.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${FINDINGS_BIN:-target/release/findings}
FINDINGS=${FINDINGS:-100000}
RUNS=${RUNS:-3}
LIMIT=${LIMIT:-1000}
QUERY=${QUERY:-payments sql}
SKIP=${SKIP:-}

WORK=$(mktemp -d)
# shellcheck source=bench_lib.sh
. benches/bench_lib.sh
require curl jq time findings
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

skipped() { [[ " $SKIP " == *" $1 "* ]]; }
has() { command -v "$1" >/dev/null && ! skipped "$1"; }

# Per tool: its seconds and peak KB of each run.
declare -A SECS_OF KB_OF
NAMES=()
record() {
    [[ " ${NAMES[*]} " == *" $1 "* ]] || NAMES+=("$1")
    SECS_OF[$1]+="$SECS "
    KB_OF[$1]+="$KB "
}

findings_export() {
    FINDINGS_BASE_URL=$URL FINDINGS_DEPLOYMENT=$DEPLOYMENT FINDINGS_TOKEN=$TOKEN \
        timed "$BIN" issues --all --format "$1" --limit "$LIMIT" >"$2"
}

echo "peers: $FINDINGS findings, pages of $LIMIT, $RUNS runs each"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), $(date -u +%Y-%m-%d)"
start_server "$FINDINGS"
ENDPOINT="$URL/api/agent/deployments/$DEPLOYMENT/issues"
bash -c "$CURSORS_ONLY" cursors "$ENDPOINT" "$LIMIT" "$WORK/cursors"
pages=$(($(wc -l <"$WORK/cursors") + 1))

for run in $(seq 1 "$RUNS"); do
    echo "run $run of $RUNS ..." >&2
    findings_export ndjson "$WORK/findings.ndjson"
    record "findings ndjson"
    findings_export csv "$WORK/findings.csv"
    record "findings csv"
    timed bash -c "$CURL_RAW_LOOP" loop "$ENDPOINT" "$LIMIT" "$WORK/raw.json" "$WORK/cursors"
    record "curl raw"
    if ! skipped jq; then
        timed bash -c "$CURL_JQ_LOOP" loop "$ENDPOINT" "$LIMIT" "$WORK/jq.ndjson" "$WORK/jq-cursors" "$WORK/page.json"
        record "curl + jq"
    fi
    if has fzf; then
        timed sh -c 'fzf --filter "$1" <"$2" >"$3"' fzf "$QUERY" "$WORK/findings.csv" "$WORK/fzf.out"
        record "fzf --filter"
    fi
    if has vd; then
        timed vd --batch -f csv "$WORK/findings.csv" -o "$WORK/vd.tsv" >/dev/null 2>&1
        record "vd --batch"
    fi
done
stop_server

items=$(wc -l <"$WORK/findings.ndjson")
echo "$items findings listed, $pages pages; CSV $(($(wc -c <"$WORK/findings.csv") / 1048576)) MB," \
    "JSON received $(($(wc -c <"$WORK/raw.json") / 1048576)) MB"
if ! skipped jq; then
    jq_items=$(wc -l <"$WORK/jq.ndjson")
    [ "$jq_items" = "$items" ] || echo "WARNING: curl + jq gave $jq_items items, findings $items"
fi
has fzf && echo "fzf --filter '$QUERY': $(wc -l <"$WORK/fzf.out") matching lines"
echo
base=$(median ${SECS_OF["findings ndjson"]})
printf '%-16s %-26s %-22s %s\n' "" "seconds (min/median/max)" "peak RSS MB" "time / findings ndjson"
for name in "${NAMES[@]}"; do
    mb=()
    for kb in ${KB_OF[$name]}; do mb+=("$((kb / 1024))"); done
    secs=$(median ${SECS_OF[$name]})
    printf '%-16s %-26s %-22s %5.2fx\n' "$name" "$(spread ${SECS_OF[$name]})" \
        "$(spread "${mb[@]}")" "$(awk -v a="$secs" -v b="$base" 'BEGIN { print a / b }')"
done
for tool in fzf vd; do
    if ! has "$tool"; then
        echo "$tool: skipped ($(skipped "$tool" && echo "SKIP" || echo "not installed"))"
    fi
done
