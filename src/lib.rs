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

/// What the site's binaries say when run natively: the site runs in the browser.
pub fn native_notice() {
    eprintln!("syncscope runs in the browser: `scripts/serve.sh` builds and serves it.");
    eprintln!("Natively, `cargo run --release --example race_report` runs the kernels on this GPU.");
}

/// One page of the built site: `syncscope::page_main!("race");` is the whole of
/// `src/bin/race.rs`. Natively the binary only says where the site is.
#[macro_export]
macro_rules! page_main {
    ($id:literal) => {
        #[cfg(target_arch = "wasm32")]
        fn main() {
            static PAGES: $crate::app::Pages = $crate::app::Pages::one($id);
            $crate::app::start(&PAGES);
        }

        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            $crate::native_notice();
        }
    };
}
