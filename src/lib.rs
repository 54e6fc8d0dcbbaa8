//! syncscope: GPU synchronization, stepped through in a model and run for real.
//!
//! The engine knows no lesson:
//! - [`model`]: a deterministic model of a few threads (pure Rust, host-tested).
//! - [`gpu`]: device, buffers, pipelines, dispatch, read-back, timing and errors, natively over
//!   Vulkan or in the browser over WebGPU.
//! - [`data`]: JSON out (downloads, reports) and in (the real-GPU figures, read by name).
//! - [`site`]: URL parameters, settings in the link, permalinks, embedding.
//! - [`text`]: numbers written for the page by hand.
//! - `ui` (browser only): Leptos components.
//!
//! [`lessons`] holds one folder per lesson, built on the engine, and the table that lists them;
//! `app` (browser only) mounts the site and routes `?lesson=` through that table.

pub mod data;
pub mod gpu;
pub mod lessons;
pub mod model;
pub mod site;
pub mod stepped;
pub mod text;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod testing;

/// What the site's binaries say when run natively: the site runs in the browser.
pub fn native_notice() {
    eprintln!("syncscope runs in the browser: `scripts/serve.sh` builds and serves it.");
    eprintln!("Natively, `cargo run --release --example report -- race` runs the kernels on this GPU.");
}

/// One page of the built site: `syncscope::page_main!("race", race);` is the whole of
/// `src/bin/race.rs`, the second name being the lesson's module, whose `page::gpu_half` builds
/// its GPU half (none for a page without one). Natively the binary only says where the site is.
///
/// In the split build what may come later is wrapped in `#[leptos::lazy]` here, in the page's
/// own binary, so that no other page's wasm carries it (see `ui::gpu_half`): the device's
/// opening (which brings wgpu in) on every page, and on a lesson page its GPU half and its
/// model's lanes as text.
#[macro_export]
macro_rules! page_main {
    ($id:literal) => {
        #[cfg(target_arch = "wasm32")]
        fn main() {
            static PAGES: $crate::app::Pages = $crate::app::Pages::one($id);
            #[cfg(feature = "split")]
            let wiring = $crate::app::Wiring { open_device: |on_lost| ::std::boxed::Box::pin(open_device(on_lost)), ..$crate::app::Wiring::DIRECT };
            #[cfg(not(feature = "split"))]
            let wiring = $crate::app::Wiring::DIRECT;
            $crate::app::start(&PAGES, wiring);
        }

        $crate::page_main!(@opener);

        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            $crate::native_notice();
        }
    };
    ($id:literal, $lesson:ident) => {
        #[cfg(target_arch = "wasm32")]
        fn main() {
            static PAGES: $crate::app::Pages = $crate::app::Pages::one($id);
            #[cfg(feature = "split")]
            let wiring = $crate::app::Wiring {
                open_device: |on_lost| ::std::boxed::Box::pin(open_device(on_lost)),
                gpu_half: Some(|part| ::std::boxed::Box::pin(gpu_half(part))),
                moving: Some(|part| ::std::boxed::Box::pin(moving(part))),
            };
            #[cfg(not(feature = "split"))]
            let wiring = $crate::app::Wiring::DIRECT;
            $crate::app::start(&PAGES, wiring);
        }

        $crate::page_main!(@opener);

        /// This page's GPU half, in chunks of its own.
        #[cfg(all(target_arch = "wasm32", feature = "split"))]
        #[::leptos::lazy]
        fn gpu_half(part: $crate::ui::gpu_half::GpuPart) -> ::leptos::prelude::AnyView {
            match part.part {
                $crate::ui::gpu_half::Part::Status => $crate::ui::gpu::status_line(),
                _ => $crate::lessons::$lesson::page::gpu_half(part),
            }
        }

        /// The parts of the model's view a run that has moved needs, in a chunk of their own.
        #[cfg(all(target_arch = "wasm32", feature = "split"))]
        #[::leptos::lazy]
        fn moving(part: $crate::ui::moving::Moving) -> ::leptos::prelude::AnyView {
            $crate::ui::moving::build(part)
        }

        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            $crate::native_notice();
        }
    };
    (@opener) => {
        /// The device's opening, and wgpu with it, in a chunk of its own.
        #[cfg(all(target_arch = "wasm32", feature = "split"))]
        #[::leptos::lazy]
        async fn open_device(
            on_lost: ::std::boxed::Box<dyn Fn(::std::string::String) + Send>,
        ) -> ::std::result::Result<::std::rc::Rc<$crate::gpu::GpuContext>, $crate::gpu::GpuError> {
            $crate::ui::gpu::open_device(on_lost).await
        }
    };
}
