#!/usr/bin/env bash
# Builds the optimised site into dist/ (set-up must have run): every page with a wasm of its
# own, so a reader downloads only the page they open.
#   1. cargo builds each lesson page's binary (src/bin/, one per page) with the feature `split`,
#      which marks each one's GPU half to be cut off;
#   2. Trunk builds the index (src/main.rs) and writes its page, the CSS and the icon into dist/;
#   3. scripts/split-pages.mjs splits, binds and optimises each lesson page's wasm into dist/ and writes
#      the start-up script that picks the page's wasm by `?lesson=` (its work on the pages
#      runs beside step 2).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$SYNCSCOPE_ROOT"
# The lesson pages only: Trunk builds the index (src/main.rs) itself, without `split`.
pages=()
for f in src/bin/*.rs; do pages+=(--bin "$(basename "$f" .rs)"); done
with_release_wasm_toolchain cargo build --locked --release --target wasm32-unknown-unknown "${pages[@]}" --features split
built="$(cargo metadata --format-version 1 --no-deps | node -pe 'JSON.parse(require("fs").readFileSync(0)).target_directory')/wasm32-unknown-unknown/release"
# Trunk's build of the index compiles the library once more (without `split`) and links it with
# fat LTO: a minute or more in which one core does everything. The pages' splitting and
# optimising (3. below, without writing dist/) fills the other meanwhile; the last step finds
# every page done.
node scripts/split-pages.mjs --pages-only "$built" &
pages_done=$!
if ! with_release_wasm_toolchain trunk build --release "$@"; then
  kill "$pages_done" 2>/dev/null || true
  exit 1
fi
wait "$pages_done"
node scripts/split-pages.mjs "$built" dist
