# Sourced by the other scripts: where the tools are and which wasm route this machine takes.
#
# Two routes build the wasm half:
#   rustup  - the machine's rustup has the wasm32-unknown-unknown target; nothing special.
#   debian  - no wasm32 std can be downloaded, so Debian's rustc-web compiles one itself
#             (-Zbuild-std) and lld-19's wasm-ld links. Only the wasm build sees these settings;
#             host tests keep the machine's normal toolchain.

SYNCSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SYNCSCOPE_ROOT

TRUNK_VERSION=0.22.1
# Must equal the wasm-bindgen version in Cargo.lock (Cargo.toml pins it with `=`).
WASM_BINDGEN_VERSION=0.2.130
DEBIAN_TOOLCHAIN=syncscope-web
# The splitter that cuts each lesson page's GPU half into chunks (crates.io, binary wasm-split-cli).
WASM_SPLIT_VERSION=0.2.4

export PATH="$HOME/.cargo/bin:$SYNCSCOPE_ROOT/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
# Vulkan loaders complain on every start without one.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR:-}" ]; then
  export XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/syncscope-xdg-$(id -u)"
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
fi

# The pinned Rust (rust-toolchain.toml). Every cargo and rustup call in the repository uses it,
# so it must exist before the first one: the machine's own toolchain is taken under that name
# when it is that version (no download), otherwise rustup installs it. A machine that can do
# neither builds with its own Rust and says so.
RUST_TOOLCHAIN="$(sed -n 's/^channel = "\(.*\)"$/\1/p' "$SYNCSCOPE_ROOT/rust-toolchain.toml")"
ensure_pinned_rust() {
  command -v rustup >/dev/null 2>&1 || return 0
  local host own
  host="$(cd / && rustc -vV | sed -n 's/^host: //p')"
  rustup toolchain list 2>/dev/null | grep -q "^$RUST_TOOLCHAIN-$host" && return 0
  own="$(cd / && rustc --version | awk '{print $2}')"
  if [ "$own" = "$RUST_TOOLCHAIN" ]; then
    ln -s "$(cd / && rustc --print sysroot)" "${RUSTUP_HOME:-$HOME/.rustup}/toolchains/$RUST_TOOLCHAIN-$host"
  elif ! (cd / && rustup toolchain install "$RUST_TOOLCHAIN" --profile minimal \
    -c rust-src -c clippy -c rustfmt -t wasm32-unknown-unknown) >&2; then
    log "WARNING: Rust $RUST_TOOLCHAIN (rust-toolchain.toml) cannot be installed here; building with this machine's $own"
    export RUSTUP_TOOLCHAIN="$(cd / && rustup show active-toolchain | awk '{print $1}')"
  fi
}

wasm_route() {
  if command -v rustup >/dev/null 2>&1 &&
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo rustup
  else
    echo debian
  fi
}

# Runs a command with the wasm build's settings for this machine's route.
with_wasm_toolchain() {
  if [ "$(wasm_route)" = debian ]; then
    RUSTUP_TOOLCHAIN="$DEBIAN_TOOLCHAIN" RUSTC_BOOTSTRAP=1 \
      CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
      CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-19/bin/wasm-ld \
      "$@"
  else
    "$@"
  fi
}

# Runs a release build of the site's wasm: with_wasm_toolchain, plus a std compiled from source.
# Each unstable flag, and what it was measured to be worth (docs/figures.md; scripts/bench.sh
# prints the sizes):
#   RUSTC_BOOTSTRAP=1                     lets the stable compiler take the flags below.
#   -Zbuild-std=std,panic_abort           a std built with this crate's settings rather than the
#                                         prebuilt one: with the three below, every lesson page's
#                                         wasm 7 % lighter (race 278.2 -> 257.9 KB).
#   -Zunstable-options                    required by the next flag.
#   -Cpanic=immediate-abort               a panic stops at once: no message formatting or
#                                         unwinding code in the page (the dev build keeps them).
#   -Zlocation-detail=none                no file/line strings for panics and #[track_caller].
#   -Zfmt-debug=shallow                   derived Debug prints type names only ("none" saved
#                                         0.2 KB more but emptied text some messages show).
# Both routes build std from source here, so both need its source: rustup's rust-src component or
# Debian's rust-web-src (scripts/setup.sh). Without rust-src, or with SYNCSCOPE_STABLE_BUILD=1,
# the build uses the prebuilt std and no unstable flag at all: the same site, larger.
with_release_wasm_toolchain() {
  if [ -n "${SYNCSCOPE_STABLE_BUILD:-}" ]; then
    log "SYNCSCOPE_STABLE_BUILD: the prebuilt std, no unstable flags (larger wasm)"
    with_wasm_toolchain "$@"
    return
  fi
  if [ "$(wasm_route)" = rustup ] && ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    log "no rust-src for this toolchain: building with the prebuilt std (larger wasm)"
    with_wasm_toolchain "$@"
    return
  fi
  # The env var replaces `target.wasm32-unknown-unknown.rustflags` in .cargo/config.toml, so
  # it repeats the cfg set there.
  RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=shallow" \
    with_wasm_toolchain "$@"
}

log() { printf '\033[1m[syncscope]\033[0m %s\n' "$*" >&2; }

ensure_pinned_rust
