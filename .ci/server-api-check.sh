#!/usr/bin/env bash
# Schemathesis against the server's /openapi.json: a bounded number of generated requests per
# operation; fails on any 5xx or any response that contradicts the schema. Uses the legacy
# mode (an admin token is reusable; a JWT's jti is single-use).
set -euo pipefail
cd "$(dirname "$0")/.."

examples="${SCHEMATHESIS_EXAMPLES:-25}"
venv="${SCHEMATHESIS_VENV:-$HOME/.cache/sdconv-schemathesis}"
if [ ! -x "$venv/bin/st" ]; then
    echo "server-api-check: installing schemathesis (PyPI) into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q schemathesis
fi

# The server as `cargo test --workspace` builds it: after that run, nothing is built again (a
# build of the server package alone would build its dependencies again with other features).
cargo test -q --workspace --no-run
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
"${CARGO_TARGET_DIR:-target}/debug/sdconv-server" --data "$data" --listen "127.0.0.1:$port" --client ci=ci-secret \
    --legacy ci=ci-key,ci@example.com,ci-password > "$data/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
    sleep 0.2
done
token=$(curl -sf -H 'x-api-key: ci-key' -H 'content-type: application/json' \
    -d '{"email":"ci@example.com","password":"ci-password"}' \
    "http://127.0.0.1:$port/partner/authenticate" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["adminAccessToken"])')
# Some documents and a user for the generated requests to find.
for status in draft review; do
    curl -sf -H 'x-api-key: ci-key' -H "authorization: $token" -H 'content-type: application/json' \
        -d "{\"user\":{\"userId\":\"ci-user\"},\"title\":\"CI $status\",\"description\":\"\",\"userRole\":\"approver\",\"groupId\":\"ci\",\"status\":\"$status\"}" \
        "http://127.0.0.1:$port/partner/documents/create" >/dev/null
done
"$venv/bin/st" run "http://127.0.0.1:$port/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" --seed 12 --phases examples,coverage,fuzzing \
    -H 'x-api-key: ci-key' -H "authorization: $token" \
    --request-timeout 60 --max-time 180
