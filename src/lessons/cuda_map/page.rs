//! The CUDA ↔ WGSL reference page: one table from `lessons::cuda_map`, each row linking to
//! the lesson that runs the WGSL side.

use crate::lessons::cuda_map::{INFO, ROWS};
use leptos::prelude::*;
use super::words;

#[component]
pub fn CudaMap() -> impl IntoView {
    // Rows whose text holds every word typed into the filter, in any case.
    let filter = RwSignal::new(String::new());
    let shown = move |row: &crate::lessons::cuda_map::MapRow| {
        // ASCII case only: the constructs' names are ASCII, and Unicode case tables would
        // outweigh the page's own code.
        let text = [row.cuda, row.wgsl, row.instead].join(" ").to_ascii_lowercase();
        filter.with(|f| f.to_ascii_lowercase().split_ascii_whitespace().all(|word| text.contains(word)))
    };
    view! {
        <article class="lesson cuda-map">
            <h1>{INFO.title}</h1>
            <div class="prose" inner_html=words::LEAD></div>
            <label class="map-filter">
                "Find a construct "
                <input type="search" placeholder="fence, barrier, atomic…" data-testid="cuda-map-filter"
                    prop:value=move || filter.get() on:input=move |e| filter.set(event_target_value(&e)) />
            </label>
            <div class="returned-wrap">
                <table class="returned cuda-map-table" data-testid="cuda-map-table">
                    <thead><tr><th>"CUDA"</th><th>"WGSL"</th><th>"What WGSL lacks, and what to do instead"</th><th>"See it run"</th></tr></thead>
                    <tbody>
                        {ROWS.iter().map(|r| {
                            let lesson = r.lesson.and_then(crate::lessons::link);
                            view! {
                                <tr hidden=move || !shown(r)>
                                    <td data-label="CUDA"><code>{r.cuda}</code></td>
                                    <td data-label="WGSL">{r.wgsl}</td>
                                    <td data-label="What WGSL lacks">{r.instead}</td>
                                    <td data-label="See it run">{lesson.map(|l| view! { <a href=format!("?lesson={}", l.id)>{l.title}</a> })}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </article>
    }
}
