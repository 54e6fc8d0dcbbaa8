//! A lesson page's GPU half: the panels that run kernels, and everything they pull in (wgpu,
//! the kernels, the read-back and its reports), about a third of a page's wasm.
//!
//! In the built site (feature `split`) each lesson page's GPU half is a chunk of its own: the
//! page opens with the model, and the chunk is fetched, and the GPU looked for, as the reader
//! nears the GPU panel. A reader who only steps the model never downloads it. Everywhere else
//! (`trunk serve`, the index, host tests) the GPU half is ordinary code, shown at once.
//!
//! The pieces:
//! - a lesson's page module has `pub fn gpu_half(part: GpuPart) -> AnyView`, which builds
//!   each [`Part`] of its GPU half from the signals the page handed over;
//! - the page asks for a part with [`gpu_half!`], e.g. `gpu_half!(Part::Panel, (variant, sizes))`;
//! - in the split build the page's binary (`page_main!`) wraps that function in
//!   `#[leptos::lazy]`: only there, so each page's wasm carries its own GPU half and no
//!   other's, and the splitter cuts whatever only that wrapper reaches into the chunk.
//!
//! This module is the bottom of the UI's loading: it names no other UI module, so the panels
//! that load their parts through it (the GPU status line, the model's lanes as text) can.

use leptos::prelude::*;
use std::any::Any;
#[cfg(feature = "split")]
use std::{future::Future, pin::Pin};

/// Which part of a page's GPU half is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The content of the "Your GPU" panel, under the adapter's status.
    Panel,
    /// Panels after it (the race lesson's replay).
    After,
    /// The litmus lab's panels between its editor and its GPU panel: the model stepped as
    /// sequential consistency, and every outcome's verdicts. Below the first screen like the
    /// GPU panel, and as heavy (the scene and the outcome table), so they come with it.
    LabModel,
    LabOutcomes,
    /// The litmus lab's visibility scene, below its outcomes: it comes with them.
    LabVisibility,
    /// The GPU's status line (`ui::gpu::GpuStatus`): the page binary's wrapper builds it,
    /// never a lesson.
    Status,
}

/// A part asked for, with the page's signals it is built from (their types are the lesson's
/// own, so they travel as `Any` through the one signature every page's wrapper shares).
pub struct GpuPart {
    pub part: Part,
    signals: Box<dyn Any>,
}

impl GpuPart {
    pub fn new(part: Part, signals: impl Any) -> Self {
        GpuPart { part, signals: Box::new(signals) }
    }

    /// The signals, as the page that asked handed them over. `None` only if a page's
    /// `gpu_half!` and its `gpu_half` disagree on their type.
    pub fn signals<T: Any>(self) -> Option<T> {
        self.signals.downcast::<T>().ok().map(|s| *s)
    }

    /// The part `build` makes from the page's signals (nothing, should their type differ).
    pub fn view<T: Any, V: IntoView + 'static>(self, build: impl FnOnce(T) -> V) -> AnyView {
        self.signals::<T>().map_or_else(|| ().into_any(), |signals| build(signals).into_any())
    }
}

/// The view a page's GPU half builds, for `ui::lesson_page::LessonPage`'s
/// `gpu` and `after`: `gpu_half!(Part::Panel, (variant, sizes))` calls the page module's own
/// `gpu_half` with that part and those signals (Copy handles, so each call takes them anew).
macro_rules! gpu_half {
    ($part:expr, $signals:expr) => {{
        #[cfg(feature = "split")]
        let view = $crate::ui::gpu_half::when_wanted(move || $crate::ui::gpu_half::GpuPart::new($part, $signals));
        #[cfg(not(feature = "split"))]
        let view = ::leptos::prelude::ViewFn::from(move || gpu_half($crate::ui::gpu_half::GpuPart::new($part, $signals)));
        view
    }};
}
pub(crate) use gpu_half;

/// A page binary's lazy wrapper around its `gpu_half`: fetches the chunk on the first call.
#[cfg(feature = "split")]
pub type Loader = fn(GpuPart) -> Pin<Box<dyn Future<Output = AnyView>>>;

/// A page's GPU half as the app hands it over in the split build: the loader of its chunk, and
/// whether the page wants it yet (false until the reader nears the GPU panel, then true for
/// good; the GPU is looked for once it turns true).
#[cfg(feature = "split")]
#[derive(Clone, Copy)]
pub struct GpuHalf {
    pub load: Loader,
    pub wanted: RwSignal<bool>,
}

/// A part while its chunk loads (nothing), then the part. Built untracked: a `Suspend` would
/// otherwise run its future again, rebuilding the whole part, whenever a signal the part reads
/// while it is being built changes.
#[cfg(feature = "split")]
pub fn loaded(part: Pin<Box<dyn Future<Output = AnyView>>>) -> AnyView {
    struct Untracked(Pin<Box<dyn Future<Output = AnyView>>>);
    impl Future for Untracked {
        type Output = AnyView;
        fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<AnyView> {
            untrack(|| self.0.as_mut().poll(cx))
        }
    }
    Suspend::new(send_wrapper::SendWrapper::new(Untracked(part))).into_any()
}

/// Shows a part of the GPU half once the reader nears the GPU panel, loading its chunk then.
#[cfg(feature = "split")]
pub fn when_wanted(part: impl Fn() -> GpuPart + Send + Sync + 'static) -> ViewFn {
    let part = std::sync::Arc::new(part);
    ViewFn::from(move || {
        let Some(GpuHalf { load, wanted }) = use_context::<GpuHalf>() else {
            return ().into_any();
        };
        let part = std::sync::Arc::clone(&part);
        (move || {
            let part = std::sync::Arc::clone(&part);
            wanted.get().then(move || loaded(load(part())))
        })
        .into_any()
    })
}

/// Whether the page's GPU half has been asked for, and the way to ask for it at once: for a page
/// whose first screen wants the GPU's word (the playground's second compiler). Without the
/// split it is always in.
pub fn wanted() -> (Signal<bool>, Callback<()>) {
    #[cfg(feature = "split")]
    if let Some(GpuHalf { wanted, .. }) = use_context::<GpuHalf>() {
        return (wanted.into(), Callback::new(move |()| wanted.set(true)));
    }
    (Signal::stored(true), Callback::new(|()| {}))
}

/// Asks for the GPU half once the top of `selector`'s panel comes within 200 px of the bottom
/// of the viewport, or has gone above it (a reader who jumps to the end of the page has passed
/// it). Without the split there is nothing to wait for: the handle wants the GPU at once.
pub fn want_when_near(selector: &'static str) {
    #[cfg(feature = "split")]
    {
        use wasm_bindgen::prelude::*;
        let Some(GpuHalf { wanted, .. }) = use_context::<GpuHalf>() else { return };
        // After the first render, when the panel is in the document.
        Effect::new(move |_| {
            let Some(window) = web_sys::window() else { return };
            let panel = window.document().and_then(|d| d.query_selector(selector).ok().flatten());
            let near = move || {
                let Some(panel) = &panel else { return true };
                let below = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(0.0);
                // A little ahead of the panel, so the chunk is in and the kernels are
                // compiling as it scrolls into view; little enough that a page whose GPU panel
                // starts below the first screen (every lesson, at 1280 × 720) opens without it.
                panel.get_bounding_client_rect().top() < below + 200.0
            };
            if near() {
                wanted.set(true);
                return;
            }
            // Scroll and resize both move the panel; a listener that, once it has fired,
            // costs one signal read per event.
            let check = Closure::<dyn Fn()>::new(move || {
                if wanted.try_get_untracked() == Some(false) && near() {
                    wanted.try_set(true);
                }
            });
            for event in ["scroll", "resize"] {
                let _ = window.add_event_listener_with_callback(event, check.as_ref().unchecked_ref());
            }
            check.forget();
        });
    }
    #[cfg(not(feature = "split"))]
    let _ = selector;
}
