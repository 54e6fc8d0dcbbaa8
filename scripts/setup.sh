#!/usr/bin/env bash
# Installs what syncscope needs, and only what is missing: safe to run again and again.
#
#   scripts/setup.sh          what building and serving the site needs
#   scripts/setup.sh --test   that, plus Chromium, a Vulkan driver (Mesa lavapipe) and Playwright
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$SYNCSCOPE_ROOT"

want_test=false
[ "${1:-}" = "--test" ] && want_test=true

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=false
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null; then
    log "please install: ${missing[*]} (no apt-get here)"
    return 1
  fi
  if ! $apt_updated; then
    log "apt-get update"
    as_root apt-get update -qq
    apt_updated=true
  fi
  log "apt-get install ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_debian_toolchain() {
  apt_install rustc-web cargo-web rust-web-src lld-19
  if ! rustup toolchain list | grep -q "^$DEBIAN_TOOLCHAIN"; then
    rustup toolchain link "$DEBIAN_TOOLCHAIN" /usr
  fi
}

# True when the default rustc is at least version $1 (x.y.z).
rust_at_least() {
  local have
  have="$(rustc --version | awk '{print $2}' | cut -d- -f1)"
  [ "$(printf '%s\n%s\n' "$1" "$have" | sort -V | head -n1)" = "$1" ]
}

# 1. A Rust toolchain that can build wasm32.
if [ "$(wasm_route)" = rustup ]; then
  log "wasm32 target: rustup's"
elif rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
  log "wasm32 target: installed by rustup"
else
  log "wasm32 target: rustup has none here; using Debian's rustc-web with -Zbuild-std"
  ensure_debian_toolchain
fi

# The release build compiles std from source (scripts/env.sh, with_release_wasm_toolchain).
if [ "$(wasm_route)" = rustup ] && ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  log "rust-src: installing (the release build compiles a smaller std from it)"
  rustup component add rust-src >/dev/null 2>&1 || log "rust-src unavailable: release builds use the prebuilt std"
fi

# The build tools below compile from crates.io: in one target folder, so the crates they share
# (clap, serde, walrus, tokio …) compile once, and without their own release profiles' fat LTO
# in one codegen unit, whose single-threaded link alone takes minutes on 2 cores for tools whose
# work here is mostly waiting on cargo and wasm-opt. Outside the repository, so neither its
# toolchain pin nor its .cargo/config.toml applies to them.
tool_install() {
  (cd / && CARGO_TARGET_DIR="${TMPDIR:-/tmp}/syncscope-tools-build" CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo "$@")
}

# 2. wasm-bindgen-cli, at the version Cargo.lock uses.
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes)"
  # Without --locked: one of its locked dependencies is no longer on crates.io.
  tool_install install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# 2b. The wasm splitter, which cuts each lesson page's GPU half into chunks of its own.
if ! cargo install --list 2>/dev/null | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  log "installing wasm_split_cli_support $WASM_SPLIT_VERSION (about a minute)"
  tool_install install -q wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
fi

# 3. Trunk. 0.22.1 declares rustc >= 1.96.1; older stable toolchains may not build it, so
#    an older toolchain hands the job to Debian's rustc 1.96 (proven to build it).
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION (long: about 10 minutes on 2 cores, once)"
  if (cd / && rust_at_least 1.96.1); then
    tool_install install -q trunk --version "$TRUNK_VERSION" --locked
  else
    ensure_debian_toolchain
    tool_install +"$DEBIAN_TOOLCHAIN" install -q trunk --version "$TRUNK_VERSION" --locked --ignore-rust-version
  fi
fi

# 4. Node tools: binaryen's wasm-opt (Debian's older binaryen miscompiles this output), terser
#    for the lesson pages' JS glue, and, for tests, playwright-core, which drives Debian's
#    Chromium (it downloads no browser).
if ! command -v npm >/dev/null; then
  apt_install nodejs npm
fi
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/terser ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# 5. Test-only: a browser with WebGPU, and a Vulkan driver for the native kernel tests.
if $want_test; then
  apt_install chromium mesa-vulkan-drivers libvulkan1
fi
log "set-up complete ($(wasm_route) route)"
