#!/usr/bin/env bash
# Sets up what is missing, then builds and serves the site with live reload.
#   scripts/serve.sh [--release] [--port N]
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$SYNCSCOPE_ROOT/scripts/setup.sh"
cd "$SYNCSCOPE_ROOT"
port=8080
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
log "building, then serving at http://127.0.0.1:$port/ (open ?lesson=race for the first lesson)"
with_wasm_toolchain trunk serve --features whole-site --address 127.0.0.1 --port "$port" ${args[@]+"${args[@]}"}
