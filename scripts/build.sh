#!/usr/bin/env bash
# Builds the optimised site into dist/ (set-up must have run): every page with a wasm of its
# own, so a reader downloads only the page they open.
#   1. cargo builds each lesson page's binary (src/bin/, one per page) with the feature `split`,
#      which marks each one's GPU half to be cut off;
#   2. Trunk builds the index (src/main.rs) and writes its page, the CSS and the icon into dist/;
#   3. scripts/split-pages.mjs splits, binds and optimises each lesson page's wasm into dist/ and writes
#      the start-up script that picks the page's wasm by `?lesson=`.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$SYNCSCOPE_ROOT"
# The lesson pages only: Trunk builds the index (src/main.rs) itself, without `split`.
pages=()
for f in src/bin/*.rs; do pages+=(--bin "$(basename "$f" .rs)"); done
with_release_wasm_toolchain cargo build --locked --release --target wasm32-unknown-unknown "${pages[@]}" --features split
with_release_wasm_toolchain trunk build --release "$@"
node scripts/split-pages.mjs "$(cargo metadata --format-version 1 --no-deps | node -pe 'JSON.parse(require("fs").readFileSync(0)).target_directory')/wasm32-unknown-unknown/release" dist
