//! The parts of a model's view that only a run that has moved needs: the timeline (empty before
//! the first step), the token layer (tokens fly on a step; it paints a compact scene's values
//! too), the findings (none before a step) and the lanes as text (built when that view is
//! opened).
//!
//! In the built site (feature `split`) they are a chunk of their own, about a tenth of a page's
//! main module, fetched at the run's first step (or when a compact scene or the text view asks):
//! a page opens with the scene, the code and the controls, and a reader who only reads it
//! downloads none of this. Until the chunk is in, each part shows its placeholder, which
//! carries `data-pending` (a browser test waits for none to be left); the timeline's frame
//! stands in its place from the start, as tall as the timeline, so that nothing below it moves
//! when it comes. Everywhere else the parts are ordinary code, built at once.
//!
//! A page binary's lazy wrapper (`page_main!`) calls [`build`]; the panels ask through [`part`].

use crate::model::{Machine, Trace};
use crate::ui::token_layer::{Flight, Painted};
use leptos::prelude::*;
use std::sync::Arc;

/// One part, with what it is drawn from.
pub enum Moving {
    Timeline(TimelineParts),
    Tokens(TokenParts),
    TextLanes(TextLanes),
    /// What the run has found wrong with its kernel ([`crate::ui::findings::Findings`]).
    Findings(Memo<Machine>),
}

/// What [`crate::ui::timeline::Timeline`] is drawn from.
pub struct TimelineParts {
    pub trace: Memo<Arc<Trace>>,
    pub revision: Signal<u64>,
    pub threads: Signal<usize>,
    pub cursor: Signal<usize>,
    pub seek: Callback<usize>,
}

/// What [`crate::ui::token_layer::TokenLayer`] is drawn from.
pub struct TokenParts {
    pub flights: Memo<(usize, Vec<Flight>)>,
    pub painted: Signal<Vec<Painted>>,
    pub ms: Signal<u32>,
    pub scene_width: Signal<f64>,
    pub compact: Signal<bool>,
}

/// What the model's state as text (its thread lanes) is drawn from.
pub struct TextLanes {
    pub machine: Memo<Machine>,
    pub moved: Memo<Vec<usize>>,
    pub on_step_thread: Callback<usize>,
}

/// The part itself.
pub fn build(part: Moving) -> AnyView {
    use crate::ui::lanes::ThreadLanes;
    use crate::ui::timeline::Timeline;
    use crate::ui::token_layer::TokenLayer;
    match part {
        Moving::Timeline(TimelineParts { trace, revision, threads, cursor, seek }) => {
            view! { <Timeline trace=trace revision=revision threads=threads cursor=cursor seek=seek /> }.into_any()
        }
        Moving::Tokens(TokenParts { flights, painted, ms, scene_width, compact }) => {
            view! { <TokenLayer flights=flights painted=painted ms=ms scene_width=scene_width compact=compact /> }.into_any()
        }
        Moving::Findings(machine) => view! { <crate::ui::findings::Findings machine=machine /> }.into_any(),
        Moving::TextLanes(TextLanes { machine, moved, on_step_thread }) => {
            view! { <ThreadLanes machine=machine moved=moved on_step_thread=on_step_thread can_pick=false /> }.into_any()
        }
    }
}

/// A page binary's lazy wrapper around [`build`]: fetches its chunk on the first call.
#[cfg(feature = "split")]
pub type Loader = fn(Moving) -> std::pin::Pin<Box<dyn std::future::Future<Output = AnyView>>>;

/// The page's loader of these parts, provided by the app for a page built split.
#[cfg(feature = "split")]
#[derive(Clone, Copy)]
pub struct Chunk(pub Loader);

/// `part`, once its code is in; `placeholder` (which should carry `data-pending`) until then.
pub fn part(part: Moving, placeholder: impl Fn() -> AnyView + Send + Sync + 'static) -> AnyView {
    #[cfg(feature = "split")]
    {
        let Some(Chunk(load)) = use_context::<Chunk>() else {
            return placeholder().into_any();
        };
        let ready = RwSignal::new(false);
        let view = load(part);
        let arrived = Box::pin(async move {
            let view = view.await;
            ready.set(true);
            view
        });
        view! { {move || (!ready.get()).then(&placeholder)} {crate::ui::gpu_half::loaded(arrived)} }.into_any()
    }
    #[cfg(not(feature = "split"))]
    {
        let _ = placeholder;
        build(part)
    }
}

/// True from the first time `moved` is, for as long as the view lives: a part once wanted stays.
pub fn latch(moved: impl Fn() -> bool + Send + Sync + 'static) -> Memo<bool> {
    Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || moved())
}
