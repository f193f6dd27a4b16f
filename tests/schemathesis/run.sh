#!/usr/bin/env bash
# The demo server checked by a property-based tester nobody here wrote:
# schemathesis 4 runs the published contract (its own quirks corrected by
# fixup.py: only 200 documented, string enums on array fields, null
# allowed as protobuf JSON reads it) against `findings demo serve`, with
# every check but positive_data_acceptance (the contract marks nothing
# required; the demo's writes need a state or ids: docs/src/demo-server.md).
#
# Not part of `cargo test` (it needs Python packages from PyPI and takes
# about two minutes); the Rust property test tests/it/demo_props.rs is.
# Usage: tests/schemathesis/run.sh [MAX_EXAMPLES] (default 30); the
# published contract is read from ../shared/spec/ (PUBLISHED overrides).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "schemathesis>=4,<5"
python3 tests/schemathesis/fixup.py \
    "${PUBLISHED:-../shared/spec/platform-openapi.json}" "$work/openapi.json"
cargo build -q --release
port=18951
FINDINGS_BASE_URL= target/release/findings demo serve --addr "127.0.0.1:$port" \
    --findings 2000 > "$work/serve.log" 2>&1 &
server=$!
until grep -q listening "$work/serve.log"; do sleep 0.2; done
"$work/venv/bin/schemathesis" run "$work/openapi.json" -u "http://127.0.0.1:$port" \
    -H "Authorization: Bearer demo-token" --checks all \
    --exclude-checks positive_data_acceptance --max-examples "${1:-30}" --seed 51 \
    --phases examples,coverage,fuzzing --mode all --no-color
