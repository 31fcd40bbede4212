#!/usr/bin/env bash
# The web page's tests in a real browser: headless Chromium (Debian's `chromium`, installed here
# when missing) loads web/dist (built by web/build.sh) from a server on 127.0.0.1 only, and
# web/browser_test.py checks the answers. Run web/build.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f web/dist/ladders_web_bg.wasm ]; then
    echo "web/dist is not built: run bash web/build.sh" >&2
    exit 2
fi
if ! command -v chromium >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "chromium is missing: apt-get install chromium (as root)" >&2
        exit 2
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory web/dist >/dev/null 2>&1 &
server=$!
trap 'kill "$server"' EXIT
# Wait for the server to listen.
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" \
        2>/dev/null && break
    sleep 0.1
done
python3 web/browser_test.py "$port"
