//! syncscope: GPU synchronization, stepped through in a model and run for real.
//!
//! The engine knows no lesson:
//! - [`model`]: a deterministic model of a few threads (pure Rust, host-tested).
//! - [`gpu`]: device, buffers, pipelines, dispatch, read-back, timing and errors, natively over
//!   Vulkan or in the browser over WebGPU.
//! - [`data`]: JSON out (downloads, reports) and in (the real-GPU figures, read by name).
//! - [`site`]: URL parameters, settings in the link, permalinks, embedding.
//! - `ui` (browser only): Leptos components.
//!
//! [`lessons`] holds one folder per lesson, built on the engine, and the table that lists them;
//! `app` (browser only) mounts the site and routes `?lesson=` through that table.

pub mod data;
pub mod gpu;
pub mod lessons;
pub mod model;
pub mod site;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod ui;
