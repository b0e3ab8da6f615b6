#!/usr/bin/env bash
# Re-fetch the vendored front-end libraries from the npm registry into
# static/vendor/, with the version in each file name. After changing a
# version here, run this script and update the <script> tags in
# templates/base.html.
set -euo pipefail

HTMX_VERSION="2.0.11"       # npm package htmx.org
HTMX_EXT_WS_VERSION="2.0.4" # npm package htmx-ext-ws

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/static/vendor"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# fetch PACKAGE VERSION -> prints the directory holding the extracted package
fetch() {
    local pkg="$1" version="$2" dir="$TMP/$1"
    mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$pkg@$version" >/dev/null)
    tar -xzf "$dir"/*.tgz -C "$dir"
    echo "$dir/package"
}

mkdir -p "$DEST"

htmx="$(fetch htmx.org "$HTMX_VERSION")"
rm -f "$DEST"/htmx-[0-9]*.min.js "$DEST"/htmx-[0-9]*.LICENSE
cp "$htmx/dist/htmx.min.js" "$DEST/htmx-$HTMX_VERSION.min.js"
cp "$htmx/LICENSE" "$DEST/htmx-$HTMX_VERSION.LICENSE"

ws="$(fetch htmx-ext-ws "$HTMX_EXT_WS_VERSION")"
rm -f "$DEST"/htmx-ext-ws-*.js "$DEST"/htmx-ext-ws-*.LICENSE
cp "$ws/dist/ws.js" "$DEST/htmx-ext-ws-$HTMX_EXT_WS_VERSION.js"
cp "$ws/LICENSE" "$DEST/htmx-ext-ws-$HTMX_EXT_WS_VERSION.LICENSE"

echo "static/vendor:"
ls -l "$DEST"
