//! The site's front page, the index: what `?` and an unknown `?lesson=` load. Each lesson
//! page of the built site is a binary of its own under `src/bin/`.
//!
//! A development build (plain `trunk serve` in the repository's root, or `scripts/serve.sh`)
//! carries every page in this one wasm instead, so one build serves them all with live reload;
//! so does any build with the `whole-site` feature. Only the release build of the index, which
//! `scripts/build.sh` makes, is the index alone.

#[cfg(target_arch = "wasm32")]
fn main() {
    #[cfg(any(feature = "whole-site", debug_assertions))]
    static PAGES: syncscope::app::Pages = syncscope::app::Pages::WHOLE;
    #[cfg(not(any(feature = "whole-site", debug_assertions)))]
    static PAGES: syncscope::app::Pages = syncscope::app::Pages::Index;
    // The index opens the GPU at once, to name it. The release build compiles it with the
    // pages' feature `split` (it shares their build of the library), but splits nothing off
    // it: its status line is built here and now.
    #[cfg(feature = "split")]
    let wiring = syncscope::app::Wiring { gpu_half: Some(status_now), ..syncscope::app::Wiring::DIRECT };
    #[cfg(not(feature = "split"))]
    let wiring = syncscope::app::Wiring::DIRECT;
    syncscope::app::start(&PAGES, wiring);
}

/// The GPU's status line, the one part of a GPU half the index shows.
#[cfg(all(target_arch = "wasm32", feature = "split"))]
fn status_now(part: syncscope::ui::gpu_half::GpuPart) -> std::pin::Pin<Box<dyn std::future::Future<Output = leptos::prelude::AnyView>>> {
    use leptos::prelude::IntoAny;
    let view = match part.part {
        syncscope::ui::gpu_half::Part::Status => syncscope::ui::gpu::status_line(),
        _ => ().into_any(),
    };
    Box::pin(std::future::ready(view))
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    syncscope::native_notice();
}
