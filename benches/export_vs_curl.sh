#!/usr/bin/env bash
# Headless export against what a user would script instead.
#
# Starts `findings demo serve --findings 100000` on a free loopback port and
# exports every finding as NDJSON, 1,000 per page, three ways:
#   1. findings issues --all --format ndjson --limit 1000
#   2. a shell loop of curl + jq following the cursor (jq prints the items
#      and reads the next cursor, as a user's script would)
#   3. curl alone fetching the same pages raw (the cursors of loop 2 replayed,
#      no parsing at all): the floor any client pays for the server and HTTP
# and prints each one's wall time and peak memory, then the ratios. The
# findings export runs against a 20,000-finding server too: its peak memory
# must not grow with the size of the export.
#
# Targets (issue 5): findings at least 2x faster than curl + jq, within 1.3x
# of curl raw, peak memory at 100,000 within 1.3x of that at 20,000.
#
# Usage: benches/export_vs_curl.sh           (after `cargo build --release`)
# Environment: FINDINGS_BIN (default target/release/findings),
#              FINDINGS (default 100000), SMALL (default 20000), LIMIT (1000).
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${FINDINGS_BIN:-target/release/findings}
FINDINGS=${FINDINGS:-100000}
SMALL=${SMALL:-20000}
LIMIT=${LIMIT:-1000}

WORK=$(mktemp -d)
# shellcheck source=bench_lib.sh
. benches/bench_lib.sh
require curl jq time findings
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

export_findings() {
    FINDINGS_BASE_URL=$URL FINDINGS_DEPLOYMENT=$DEPLOYMENT FINDINGS_TOKEN=$TOKEN \
        timed "$BIN" issues --all --format ndjson --limit "$LIMIT" >"$1"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "binary:  $BIN"
echo

start_server "$SMALL"
export_findings "$WORK/small.ndjson"
small_secs=$SECS small_kb=$KB
small_lines=$(wc -l <"$WORK/small.ndjson")
stop_server

start_server "$FINDINGS"
ENDPOINT="$URL/api/agent/deployments/$DEPLOYMENT/issues"

timed bash -c "$CURL_JQ_LOOP" loop "$ENDPOINT" "$LIMIT" "$WORK/jq.ndjson" "$WORK/cursors" "$WORK/page.json"
jq_secs=$SECS jq_kb=$KB
jq_lines=$(wc -l <"$WORK/jq.ndjson")

timed bash -c "$CURL_RAW_LOOP" loop "$ENDPOINT" "$LIMIT" "$WORK/raw.json" "$WORK/cursors"
raw_secs=$SECS raw_kb=$KB
raw_bytes=$(wc -c <"$WORK/raw.json")
pages=$(($(wc -l <"$WORK/cursors") + 1))

export_findings "$WORK/findings.ndjson"
f_secs=$SECS f_kb=$KB
f_lines=$(wc -l <"$WORK/findings.ndjson")
stop_server

# jq rewrites numbers (0.0 as 0): compare through jq, first and last pages.
same="yes (first and last 2,000 items, through jq -c)"
for end in head tail; do
    if ! cmp -s <("$end" -n 2000 "$WORK/findings.ndjson" | jq -c .) <("$end" -n 2000 "$WORK/jq.ndjson"); then
        same="NO: the $end of the outputs differs"
    fi
done
[ "$f_lines" = "$jq_lines" ] || same="NO: $f_lines items against $jq_lines"

printf '%-44s %9s %12s %10s\n' "export of $FINDINGS findings, $pages pages of $LIMIT" "seconds" "peak RSS" "items"
printf '%-44s %9s %9s MB %10s\n' "findings issues --all --format ndjson" "$f_secs" "$((f_kb / 1024))" "$f_lines"
printf '%-44s %9s %9s MB %10s\n' "curl + jq loop following the cursor" "$jq_secs" "$((jq_kb / 1024))" "$jq_lines"
printf '%-44s %9s %9s MB %10s\n' "curl alone, the same pages raw" "$raw_secs" "$((raw_kb / 1024))" "($((raw_bytes / 1048576)) MB)"
printf '%-44s %9s %9s MB %10s\n' "findings, $SMALL findings" "$small_secs" "$((small_kb / 1024))" "$small_lines"
echo
echo "findings output, item for item the curl + jq output: $same"
awk -v f="$f_secs" -v j="$jq_secs" -v r="$raw_secs" -v big="$f_kb" -v small="$small_kb" 'BEGIN {
    printf "curl + jq / findings time:            %5.2fx  (target >= 2)\n", j / f
    printf "findings / curl raw time:             %5.2fx  (target <= 1.3)\n", f / r
    printf "findings peak RSS, %s / %s:   %5.2fx  (target <= 1.3)\n", "100k", "20k", big / small
}'
