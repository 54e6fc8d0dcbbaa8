//! The browser UI. Components here know nothing of a particular lesson; each lesson's page
//! lives in `lessons/` and wires a model, its kernels and its text into them.

mod code_view;
mod gpu;
mod histogram;
mod home;
mod lanes;
mod panel;
mod lessons;
mod player;
mod query;

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
    let page = match lesson.as_deref() {
        None | Some("") => home::Home().into_any(),
        Some("race") => lessons::race::RaceLesson().into_any(),
        Some(other) => {
            let message = crate::lessons::param::one_of(
                "lesson",
                other,
                &crate::lessons::LESSONS.iter().map(|l| l.id).collect::<Vec<_>>(),
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
    view! {
        <header class="site">
            <a class="brand" href="?">"syncscope"</a>
            <span class="tagline">"GPU synchronization, stepped and run for real"</span>
        </header>
        <main id="main">{page}</main>
    }
}
