#!/usr/bin/env bash
# Builds the optimised site into dist/ (set-up must have run): every page with a wasm of its
# own, so a reader downloads only the page they open.
#   1. cargo builds each lesson page's binary (src/bin/, one per page) and the index's
#      (src/main.rs) with the feature `split`, which marks each page's GPU half to be cut off;
#   2. Trunk writes the index page, its wasm (bound and optimised), the CSS and the icon into
#      dist/: its cargo, asked for the same binary with the same feature, finds it built;
#   3. scripts/split-pages.mjs splits, binds and optimises each lesson page's wasm into dist/ and writes
#      the start-up script that picks the page's wasm by `?lesson=` (its work on the pages
#      runs beside step 2).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$SYNCSCOPE_ROOT"
# Every page and the index in one cargo build, so the library is compiled once and the index's
# link (fat LTO, one core for a minute) runs beside the pages' links. The index has no `#[lazy]`
# function to split; built without `split`, as Trunk alone would, it compiled the whole library
# a second time: three minutes of a cold build.
pages=(--bin syncscope)
for f in src/bin/*.rs; do pages+=(--bin "$(basename "$f" .rs)"); done
with_release_wasm_toolchain cargo build --locked --release --target wasm32-unknown-unknown "${pages[@]}" --features split
built="$(cargo metadata --format-version 1 --no-deps | node -pe 'JSON.parse(require("fs").readFileSync(0)).target_directory')/wasm32-unknown-unknown/release"
# Trunk binds and optimises the index's wasm (wasm-opt -Oz on one core); the pages' splitting
# and optimising (3. below, without writing dist/) runs meanwhile, and the last step finds
# every page done.
node scripts/split-pages.mjs --pages-only "$built" &
pages_done=$!
if ! with_release_wasm_toolchain trunk build --release --features split "$@"; then
  kill "$pages_done" 2>/dev/null || true
  exit 1
fi
wait "$pages_done"
node scripts/split-pages.mjs "$built" dist
