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
TOKEN=demo-token
DEPLOYMENT=1234

missing=()
command -v curl >/dev/null || missing+=("curl (apt-get install -y curl)")
command -v jq >/dev/null || missing+=("jq (apt-get install -y jq)")
[ -x /usr/bin/time ] || missing+=("GNU time at /usr/bin/time, for peak memory (apt-get install -y time)")
[ -x "$BIN" ] || missing+=("the findings binary at $BIN (cargo build --release)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "export_vs_curl: cannot run, missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 2
fi

WORK=$(mktemp -d)
SERVER_PID=""
stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# Starts a demo server with $1 findings on a free port; sets URL.
start_server() {
    local n=$1 log="$WORK/server-$1.log"
    "$BIN" demo serve --addr 127.0.0.1:0 --findings "$n" >"$log" 2>&1 &
    SERVER_PID=$!
    URL=""
    for _ in $(seq 1 300); do
        URL=$(sed -n 's/^findings demo server listening on \(http[^ ]*\).*/\1/p' "$log")
        [ -n "$URL" ] && break
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "export_vs_curl: the demo server did not start:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.1
    done
    if [ -z "$URL" ]; then
        echo "export_vs_curl: the demo server did not answer within 30 s" >&2
        exit 1
    fi
}

# Runs a command under GNU time; sets SECS and KB (peak resident memory of
# the largest process it ran).
timed() {
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$@"
    read -r SECS KB <"$WORK/time"
}

export_findings() {
    FINDINGS_BASE_URL=$URL FINDINGS_DEPLOYMENT=$DEPLOYMENT FINDINGS_TOKEN=$TOKEN \
        timed "$BIN" issues --all --format ndjson --limit "$LIMIT" >"$1"
}

# The user's script: curl a page, jq out its items and its cursor, repeat.
CURL_JQ_LOOP='
url=$1 limit=$2 out=$3 cursors=$4 page=$5
cursor=""
: >"$out"; : >"$cursors"
while :; do
    if [ -z "$cursor" ]; then body="{\"limit\": $limit}"
    else body="{\"limit\": $limit, \"cursor\": \"$cursor\"}"; fi
    curl -sS --fail -X POST "$url" -H "Authorization: Bearer demo-token" \
        -H "Content-Type: application/json" -d "$body" -o "$page"
    jq -c ".issues[]" "$page" >>"$out"
    cursor=$(jq -r ".cursor // empty" "$page")
    [ -z "$cursor" ] && break
    echo "$cursor" >>"$cursors"
done
'

# The same pages, raw: curl only, the cursors known in advance.
CURL_RAW_LOOP='
url=$1 limit=$2 out=$3 cursors=$4
: >"$out"
curl -sS --fail -X POST "$url" -H "Authorization: Bearer demo-token" \
    -H "Content-Type: application/json" -d "{\"limit\": $limit}" >>"$out"
while read -r cursor; do
    curl -sS --fail -X POST "$url" -H "Authorization: Bearer demo-token" \
        -H "Content-Type: application/json" \
        -d "{\"limit\": $limit, \"cursor\": \"$cursor\"}" >>"$out"
done <"$cursors"
'

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
