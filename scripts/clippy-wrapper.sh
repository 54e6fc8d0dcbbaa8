#!/usr/bin/env bash
# Clippy as cargo's RUSTC_WORKSPACE_WRAPPER (scripts/test.sh, its host phase): this crate's code
# is compiled with Clippy's lints on, every warning an error, in the same build that compiles it
# for the tests. A separate `cargo clippy --all-targets` checked every dependency once more only
# to lint this one crate: 125 s of a cold run on two cores (2026-11-26). Cargo uses the wrapper
# for the workspace's own crate alone, so the dependencies' builds are shared and unchanged.
exec clippy-driver "$@" -D warnings
