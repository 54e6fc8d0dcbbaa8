//! The index of lessons and the reader's WebGPU status.

use crate::ui::gpu::GpuStatus;
use crate::lessons::LessonInfo;
use leptos::prelude::*;

#[component]
pub fn Home() -> impl IntoView {
    view! {
        <section class="home">
            <h1>"See GPU synchronization happen"</h1>
            <p class="lede">
                "Each lesson steps a few threads through a tiny program, one instruction at a time, and "
                "then runs the real WGSL kernel on your own GPU, so the model and the hardware sit side by side."
            </p>
            <GpuStatus />
            <PageList pages=crate::lessons::LESSONS test_id="lesson-list" />
            <h2>"Reference"</h2>
            <PageList pages=crate::lessons::REFERENCE test_id="reference-list" />
        </section>
    }
}

/// Links to pages, each with its summary.
#[component]
fn PageList(pages: &'static [LessonInfo], test_id: &'static str) -> impl IntoView {
    view! {
        <ul class="lesson-list" data-testid=test_id>
            {pages.iter().map(|l| view! {
                <li data-lesson=l.id>
                    <a href=format!("?lesson={}", l.id)>{l.title}</a>
                    <span class="summary">" — "{l.summary}</span>
                </li>
            }).collect_view()}
        </ul>
    }
}
