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

# True when the default rustc is at least version $1 (x.y.z).
rust_at_least() {
  local have
  have="$(rustc --version | awk '{print $2}' | cut -d- -f1)"
  [ "$(printf '%s\n%s\n' "$1" "$have" | sort -V | head -n1)" = "$1" ]
}

# The installs that need no CPU (apt's packages, npm's) run in the background while cargo
# compiles the build tools, so a cold set-up waits for the longer of the two, not their sum.
# Every apt package this run needs goes in one apt-get call (two would fight over dpkg's lock).
apt_wanted=()
need_debian_toolchain=false

# 1. A Rust toolchain that can build wasm32.
if [ "$(wasm_route)" = rustup ]; then
  log "wasm32 target: rustup's"
elif rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
  log "wasm32 target: installed by rustup"
else
  log "wasm32 target: rustup has none here; using Debian's rustc-web with -Zbuild-std"
  need_debian_toolchain=true
fi

# The release build compiles std from source (scripts/env.sh, with_release_wasm_toolchain).
if [ "$(wasm_route)" = rustup ] && ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  log "rust-src: installing (the release build compiles a smaller std from it)"
  rustup component add rust-src >/dev/null 2>&1 || log "rust-src unavailable: release builds use the prebuilt std"
fi

# Trunk 0.22.1 declares rustc >= 1.96.1; an older toolchain hands its build to Debian's rustc
# 1.96 (proven to build it), so that compiler comes with the apt packages when Trunk is missing.
need_trunk=false
[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ] && need_trunk=true
if $need_trunk && ! (cd / && rust_at_least 1.96.1); then
  need_debian_toolchain=true
fi
$need_debian_toolchain && apt_wanted+=(rustc-web cargo-web rust-web-src lld-19)
command -v npm >/dev/null || apt_wanted+=(nodejs npm)
$want_test && apt_wanted+=(chromium mesa-vulkan-drivers libvulkan1)

# 4. (in the background) apt's packages, then the node tools: binaryen's wasm-opt (Debian's
#    older binaryen miscompiles this output), terser for the lesson pages' JS glue, and, for
#    tests, playwright-core, which drives Debian's Chromium (it downloads no browser).
background_installs() {
  if [ ${#apt_wanted[@]} -gt 0 ]; then apt_install "${apt_wanted[@]}"; fi
  if $need_debian_toolchain && ! rustup toolchain list | grep -q "^$DEBIAN_TOOLCHAIN"; then
    rustup toolchain link "$DEBIAN_TOOLCHAIN" /usr
  fi
  if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/terser ] ||
    [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}
background_installs &
background_pid=$!
# Waits for the background installs once; fails the set-up if they failed.
background_done=false
await_background() {
  $background_done && return 0
  background_done=true
  wait "$background_pid" || { log "apt or npm install failed (above)"; exit 1; }
}

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

# 3. Trunk, last: when it needs Debian's compiler, that comes with the background installs.
if $need_trunk; then
  log "installing trunk $TRUNK_VERSION (long: about 10 minutes on 2 cores, once)"
  if (cd / && rust_at_least 1.96.1); then
    tool_install install -q trunk --version "$TRUNK_VERSION" --locked
  else
    await_background
    tool_install +"$DEBIAN_TOOLCHAIN" install -q trunk --version "$TRUNK_VERSION" --locked --ignore-rust-version
  fi
fi

await_background
log "set-up complete ($(wasm_route) route)"
