#!/bin/bash
# Run check.py (the official Python SDK against the mock) inside a built real-server root, which has Python 3.13,
# the SDK (label-studio-sdk 2.x, /opt/ls/site) and its dependencies: the root shares this machine's loopback.
#   bash test/e2e/python-sdk/run.sh [<realls scratch dir>]     (default /var/cache/realls-shared)
# Starts its own mock on 127.0.0.1:$PORT (default 18931) with a small seed, and stops it afterwards.
set -euo pipefail
SCRATCH="${1:-/var/cache/realls-shared}"
PORT="${PORT:-18931}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
[ -x "$SCRATCH/root/usr/bin/python3" ] || { echo "no real-server root at $SCRATCH (bash ../shared/realls/setup.sh <dir>)" >&2; exit 1; }
WORK="$(mktemp -d "$SCRATCH/root/tmp/dmq-sdk-check.XXXXXX")"
KEY="sdk-check-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cat > "$WORK/seed.json" <<JSON
{ "users": [{ "id": 1, "username": "admin", "email": "admin@example.com", "token": "$KEY" }],
  "projects": [{ "id": 1, "title": "Seeded", "created_by": 1,
    "label_config": "<View><Text name=\"text\" value=\"\$text\"/><Choices name=\"s\" toName=\"text\"><Choice value=\"A\"/></Choices></View>" }],
  "tasks": [{ "id": 1, "project": 1, "data": { "text": "seeded" } }],
  "views": [{ "id": 1, "project": 1, "data": { "title": "All" } }] }
JSON
cp "$HERE/check.py" "$WORK/check.py"
# The mock in a process group of its own (setsid: MOCK is the group's id), so the trap stops the whole
# group: killing only the first process left its node child (tsx runs one) serving the port.
setsid bash -c 'cd "$1" && exec npx tsx mock-server/main.ts --port "$2" --data "$3"' mock "$REPO" "$PORT" "$WORK/seed.json" \
  > "$WORK/mock.log" 2>&1 &
MOCK=$!
trap 'kill -TERM -- "-$MOCK" 2>/dev/null || true; wait "$MOCK" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 60); do
  curl -s -o /dev/null -H "Authorization: Token $KEY" "http://127.0.0.1:$PORT/api/current-user/whoami" && break
  sleep 1
done
chroot "$SCRATCH/root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 SDK_SRC=/opt/ls/site \
  NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost \
  python3 "/tmp/$(basename "$WORK")/check.py" "http://127.0.0.1:$PORT" "$KEY"
