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
    syncscope::app::start(&PAGES);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    syncscope::native_notice();
}
