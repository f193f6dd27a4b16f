# Shared by the shell benches (export_vs_curl.sh, peers.sh): sourced, not run.
#
# Gives: require TOOL... (exit 2 naming what is missing), start_server N
# (a demo server on a free loopback port; sets URL and SERVER_PID),
# stop_server, timed CMD... (sets SECS and KB, the peak resident memory),
# spread VALUES... (prints "min / median / max"), and the user's two
# scripts over the same pages: CURL_JQ_LOOP and CURL_RAW_LOOP.
# Expects BIN (the findings binary) and WORK (a scratch directory).

TOKEN=demo-token
DEPLOYMENT=1234
SERVER_PID=""

# Exits 2 listing what is missing, each with how to get it.
require() {
    local missing=()
    local tool
    for tool in "$@"; do
        case $tool in
        time) [ -x /usr/bin/time ] || missing+=("GNU time at /usr/bin/time, for peak memory (apt-get install -y time)") ;;
        findings) [ -x "$BIN" ] || missing+=("the findings binary at $BIN (cargo build --release)") ;;
        *) command -v "$tool" >/dev/null || missing+=("$tool (apt-get install -y $tool)") ;;
        esac
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "$(basename "$0"): cannot run, missing:" >&2
        printf '  - %s\n' "${missing[@]}" >&2
        exit 2
    fi
}

stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}

# Starts a demo server with $1 findings on a free port; sets URL.
start_server() {
    local n=$1 log="$WORK/server-$1.log"
    "$BIN" demo serve --addr 127.0.0.1:0 --findings "$n" >"$log" 2>&1 &
    SERVER_PID=$!
    URL=""
    for _ in $(seq 1 600); do
        URL=$(sed -n 's/^findings demo server listening on \(http[^ ]*\).*/\1/p' "$log")
        [ -n "$URL" ] && break
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "$(basename "$0"): the demo server did not start:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.1
    done
    if [ -z "$URL" ]; then
        echo "$(basename "$0"): the demo server did not answer within 60 s" >&2
        exit 1
    fi
}

# Runs a command under GNU time; sets SECS and KB (peak resident memory of
# the largest process it ran). Its figures are the file's last line: a
# command that exits non-zero gets a "Command exited ..." line before them.
timed() {
    local code=0
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$@" || code=$?
    read -r SECS KB < <(tail -n 1 "$WORK/time")
    return "$code"
}

# "min / median / max" of the numbers given.
spread() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%s / %s / %s", v[1], m, v[NR]
    }'
}

# The median of the numbers given.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    }'
}

# The user's script: curl a page, jq out its items and its cursor, repeat.
# Arguments: URL LIMIT OUT CURSORS PAGE (the cursors are written for
# CURL_RAW_LOOP to replay).
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
# Arguments: URL LIMIT OUT CURSORS.
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

# The cursors of every page of $1 (a List issues URL), $2 a page: what
# CURL_RAW_LOOP replays, found without jq (the cursor ends each page).
# Writes them to $3.
CURSORS_ONLY='
url=$1 limit=$2 cursors=$3
cursor=""
: >"$cursors"
while :; do
    if [ -z "$cursor" ]; then body="{\"limit\": $limit}"
    else body="{\"limit\": $limit, \"cursor\": \"$cursor\"}"; fi
    cursor=$(curl -sS --fail -X POST "$url" -H "Authorization: Bearer demo-token" \
        -H "Content-Type: application/json" -d "$body" |
        tail -c 512 | sed -n "s/.*\"cursor\":\"\([^\"]*\)\"}\$/\1/p")
    [ -z "$cursor" ] && break
    echo "$cursor" >>"$cursors"
done
'
