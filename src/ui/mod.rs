//! The browser UI. Components here know nothing of a particular lesson; each lesson's page
//! lives in `lessons/` and wires a model, its kernels and its text into them.

mod chart;
mod code_view;
mod cuda_map;
mod download;
mod embed;
mod figures;
mod gpu;
mod gpu_form;
mod histogram;
mod home;
mod lanes;
mod panel;
mod permalink;
mod lesson_page;
mod matrix;
mod lessons;
mod measured;
mod model_panel;
mod player;
mod query;
mod table;
mod ticket_grid;

use leptos::prelude::*;

pub use gpu::{GpuHandle, GpuState};

pub fn mount() {
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let gpu = GpuHandle::connect_on_start();
    provide_context(gpu);
    let lesson = query::get("lesson");
    let embedded = embed::requested();
    if embedded {
        // Only a known lesson's id (a constant) is ever put in the message, never the URL's text.
        let known = lesson.as_deref().and_then(crate::lessons::find).map_or("", |l| l.id);
        embed::start(known);
    }
    let page = match lesson.as_deref() {
        None | Some("") => home::Home().into_any(),
        Some("race") => lessons::race::RaceLesson().into_any(),
        Some("atomic-counter") => lessons::tickets::TicketsLesson().into_any(),
        Some("append") => lessons::append::AppendLesson().into_any(),
        Some("cas-max") => lessons::cas_max::CasMaxLesson().into_any(),
        Some("atomic-ops") => lessons::atomic_ops::AtomicOpsLesson().into_any(),
        Some("spinlock") => lessons::spinlock::SpinlockLesson().into_any(),
        Some("barrier") => lessons::barrier::BarrierLesson().into_any(),
        Some("reduction") => lessons::reduction::ReductionLesson().into_any(),
        Some("tiled") => lessons::tiled::TiledLesson().into_any(),
        Some("histogram") => lessons::histogram::HistogramLesson().into_any(),
        Some("message-passing") => lessons::message_passing::MessagePassingLesson().into_any(),
        Some("cuda-map") => cuda_map::CudaMap().into_any(),
        Some(other) => {
            let message = crate::lessons::param::one_of(
                "lesson",
                other,
                &crate::lessons::LESSONS.iter().chain(crate::lessons::REFERENCE).map(|l| l.id).collect::<Vec<_>>(),
            )
            .err()
            .unwrap_or_default();
            view! {
                <p class="notice warn" role="alert" data-testid="param-error">{message}</p>
                {home::Home()}
            }
            .into_any()
        }
    };
    let header = (!embedded).then(|| view! {
        <header class="site">
            <a class="brand" href="?">"syncscope"</a>
            <span class="tagline">"GPU synchronization, stepped and run for real"</span>
        </header>
    });
    let open_whole = embedded.then(|| view! {
        <p class="embed-credit">
            <a href=full_page_link() target="_blank" rel="noopener" data-testid="open-full"
                on:click=|e| {
                    use wasm_bindgen::JsCast;
                    if let Some(a) = e.current_target().and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok()) {
                        a.set_href(&full_page_link());
                    }
                }>"Open in syncscope ↗"</a>
        </p>
    });
    view! {
        {header}
        <main id="main">{page}</main>
        {open_whole}
    }
}

/// This page's address without `embed=1`: the lesson in a tab of its own, state and all.
/// Taken again on click, so it carries the state the reader has reached since.
fn full_page_link() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return "?".into() };
    let search = location.search().unwrap_or_default();
    let kept: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("embed="))
        .collect();
    format!("{}?{}", location.pathname().unwrap_or_default(), kept.join("&"))
}
