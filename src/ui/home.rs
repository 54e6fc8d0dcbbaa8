//! The index of lessons and the reader's WebGPU status.

use super::gpu::GpuStatus;
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
            <ul class="lesson-list" data-testid="lesson-list">
                {crate::lessons::LESSONS.iter().map(|l| view! {
                    <li>
                        <a href=format!("?lesson={}", l.id)>{l.title}</a>
                        <span class="summary">" — "{l.summary}</span>
                    </li>
                }).collect_view()}
            </ul>
            <h2>"Reference"</h2>
            <ul class="lesson-list" data-testid="reference-list">
                {crate::lessons::REFERENCE.iter().map(|l| view! {
                    <li>
                        <a href=format!("?lesson={}", l.id)>{l.title}</a>
                        <span class="summary">" — "{l.summary}</span>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}
