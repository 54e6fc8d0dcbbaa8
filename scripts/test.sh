#!/usr/bin/env bash
# Sets up what is missing, then runs every test tier, and prints how long each phase took:
#   set-up      scripts/setup.sh --test (seconds when everything is installed)
#   style       cargo fmt --check, then clippy on the browser's code
#   host        cargo test, with clippy's lints on the host's code as it compiles (warnings are
#               errors): the models, and the kernels natively on Vulkan (lavapipe without a GPU)
#   site        the release build of the site (scripts/build.sh)
#   scripts     the build's post-processing scripts on small fixtures
#   browser     the built site in headless Chromium with WebGPU, driven by Playwright
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$SYNCSCOPE_ROOT"

phases=()
report() {
  local status=$?
  [ ${#phases[@]} -eq 0 ] && return
  log "phase times:"
  for p in "${phases[@]}"; do printf '  %-9s %s\n' "${p%%=*}" "${p#*=}" >&2; done
  [ $status -eq 0 ] || log "failed in phase: ${current:-?}"
}
trap report EXIT

# Runs "$@" as the phase $1, and keeps its wall time for the summary.
phase() {
  current="$1"
  shift
  log "$current"
  local start=$SECONDS
  "$@"
  local took=$((SECONDS - start))
  phases+=("$current=$((took / 60)) min $((took % 60)) s")
}

style() {
  cargo fmt --check
  with_wasm_toolchain cargo clippy --locked --target wasm32-unknown-unknown --bins --features split -- -D warnings
  with_wasm_toolchain cargo clippy --locked --target wasm32-unknown-unknown --features whole-site -- -D warnings
}

phase set-up "$SYNCSCOPE_ROOT/scripts/setup.sh" --test
phase style style
# Clippy lints the host's code in the build that compiles it for the tests (scripts/clippy-wrapper.sh
# says why), every target `cargo test` builds: the library, its tests, the integration tests and
# the binaries.
phase host env RUSTC_WORKSPACE_WRAPPER="$SYNCSCOPE_ROOT/scripts/clippy-wrapper.sh" cargo test --locked
phase site "$SYNCSCOPE_ROOT/scripts/build.sh"
phase scripts node --test scripts/test/
phase browser node --test --test-concurrency=1 e2e/
