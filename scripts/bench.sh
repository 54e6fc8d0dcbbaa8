#!/usr/bin/env bash
# Builds the release site and prints its size and speed figures (nothing is asserted).
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$SYNCSCOPE_ROOT/scripts/setup.sh" --test
"$SYNCSCOPE_ROOT/scripts/build.sh"
cd "$SYNCSCOPE_ROOT"
node bench/bench.mjs
