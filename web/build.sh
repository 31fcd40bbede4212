#!/usr/bin/env bash
# Builds the web page into web/dist/: the shell crate (web/) for wasm32-unknown-unknown, its
# JavaScript bindings by the wasm-bindgen CLI of the crate's own version (installed from crates.io
# when missing), and the page's static files (web/page/). Nothing is fetched when the page runs.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' web/Cargo.toml)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    # Not --locked: its lock file pins a webpki-roots the registry here lacks.
    cargo install wasm-bindgen-cli --version "=$version" --quiet
fi
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
# The `wasm` profile (Cargo.toml): the release build optimised for size.
cargo build -p ladders-web --profile wasm --target wasm32-unknown-unknown --quiet
rm -rf web/dist
mkdir -p web/dist
# The name section (function names for a debugger's stack traces, about 450 KB) is left out of
# the page's file.
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir web/dist \
    target/wasm32-unknown-unknown/wasm/ladders_web.wasm
cp web/page/* web/dist/
size=$(stat -c %s web/dist/ladders_web_bg.wasm)
limit=$((2 * 1024 * 1024))
if [ "$size" -gt "$limit" ]; then
    echo "web/dist/ladders_web_bg.wasm is $size bytes, over the 2 MiB limit" >&2
    exit 1
fi
echo "web/dist: $(ls web/dist | tr '\n' ' ')(wasm $size bytes)"
