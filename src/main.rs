//! The site's front page, the index: what `?` and an unknown `?lesson=` load. Each lesson
//! page of the built site is a binary of its own under `src/bin/`. With the `whole-site`
//! feature (what `scripts/serve.sh` builds) this one wasm carries every page instead.

#[cfg(target_arch = "wasm32")]
fn main() {
    #[cfg(feature = "whole-site")]
    static PAGES: syncscope::app::Pages = syncscope::app::Pages::WHOLE;
    #[cfg(not(feature = "whole-site"))]
    static PAGES: syncscope::app::Pages = syncscope::app::Pages::Index;
    syncscope::app::start(&PAGES);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    syncscope::native_notice();
}
