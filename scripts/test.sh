#!/usr/bin/env bash
# Sets up what is missing, then runs every test tier, and prints how long each phase took:
#   set-up      scripts/setup.sh --test (seconds when everything is installed)
#   style       cargo fmt --check
#   host        cargo test, with Clippy's lints on the host's code as it compiles (warnings are
#               errors): the models, and the kernels natively on Vulkan (lavapipe without a GPU)
#   site        the release build of the site (scripts/build.sh), with Clippy's lints on the
#               browser's code as it compiles
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

# Clippy lints this crate's code in the builds that compile it anyway, every warning an error
# (scripts/clippy-wrapper.sh says why): no separate `cargo clippy` compiles the dependencies again.
lint="$SYNCSCOPE_ROOT/scripts/clippy-wrapper.sh"

# The release build of the site, linted: the lesson pages and the index, all with `split`, in
# one build of the library (scripts/build.sh). Building the index without `split`, as Trunk
# alone would, compiled the library a second time (three minutes of one core, cold) to lint a
# few lines more; `trunk serve` compiles those.
site() {
  RUSTC_WORKSPACE_WRAPPER="$lint" "$SYNCSCOPE_ROOT/scripts/build.sh"
}

phase set-up "$SYNCSCOPE_ROOT/scripts/setup.sh" --test
phase style cargo fmt --check
# Every target `cargo test` builds: the library, its tests, the integration tests and the binaries,
# and the stepper's crate (crates/stepper) with its own tests.
phase host env RUSTC_WORKSPACE_WRAPPER="$lint" cargo test --locked --workspace
phase site site
phase scripts node --test scripts/test/
phase browser node --test --test-concurrency=1 e2e/
