#!/usr/bin/env bash
# Builds the optimised site into dist/ (set-up must have run).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$SYNCSCOPE_ROOT"
with_wasm_toolchain trunk build --release "$@"
