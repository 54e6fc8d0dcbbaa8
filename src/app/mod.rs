//! The site in the browser: mounting, the header, the index and the router, which opens the
//! page [`crate::lessons::LESSONS`] names for `?lesson=`.

mod home;

use crate::lessons::{find, LESSONS, REFERENCE};
use crate::site::{embed, param, query};
use crate::ui::GpuHandle;
use leptos::prelude::*;

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
        let known = lesson.as_deref().and_then(find).map_or("", |l| l.id);
        embed::start(known);
    }
    let page = match lesson.as_deref().map(|id| (id, find(id))) {
        None | Some(("", _)) => home::Home().into_any(),
        Some((id, Some(lesson))) => {
            let page = (lesson.page)();
            // The course goes on from the end of each lesson (not inside an embedding frame,
            // where another lesson would replace the one the notes chose).
            let (previous, next) = crate::lessons::neighbours(id);
            let nav = (!embedded && (previous.is_some() || next.is_some())).then(|| view! {
                <nav class="lesson-nav" aria-label="course">
                    {previous.map(|l| view! { <a rel="prev" href=format!("?lesson={}", l.id) data-testid="lesson-prev">{format!("← {}", l.title)}</a> })}
                    {next.map(|l| view! { <a rel="next" href=format!("?lesson={}", l.id) data-testid="lesson-next">{format!("{} →", l.title)}</a> })}
                </nav>
            });
            view! { {page} {nav} }.into_any()
        }
        Some((other, None)) => {
            let message = param::one_of(
                "lesson",
                other,
                &LESSONS.iter().chain(REFERENCE).map(|l| l.id).collect::<Vec<_>>(),
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
