//! syncscope: GPU synchronization, stepped through in a model and run for real.
//!
//! - [`model`]: a deterministic model of a few threads (pure Rust, host-tested).
//! - [`gpu`]: the real kernels, natively over Vulkan or in the browser over WebGPU.
//! - [`lessons`]: each lesson's program, kernels, allowed outcomes and text.
//! - [`export`]: GPU results as JSON for the reader to download.
//! - `ui` (browser only): Leptos components that know nothing of a particular lesson, and
//!   one page per lesson.

pub mod export;
pub mod gpu;
pub mod lessons;
pub mod model;

#[cfg(target_arch = "wasm32")]
pub mod ui;
