#!/usr/bin/env bash
# Sets up what is missing, then runs every test tier:
#   1. host: the model, and the kernels natively on Vulkan (lavapipe without a GPU)
#   2. browser: the built site in headless Chromium with WebGPU, driven by Playwright
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$SYNCSCOPE_ROOT/scripts/setup.sh" --test
cd "$SYNCSCOPE_ROOT"

log "host tests"
cargo test --locked

log "building the site"
"$SYNCSCOPE_ROOT/scripts/build.sh"

log "browser tests"
node --test --test-concurrency=1 e2e/
