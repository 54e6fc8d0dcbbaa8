//! The CUDA ↔ WGSL reference page: one table from `lessons::cuda_map`, each row linking to
//! the lesson that runs the WGSL side.

use crate::lessons::cuda_map::{INFO, ROWS};
use leptos::prelude::*;

#[component]
pub fn CudaMap() -> impl IntoView {
    view! {
        <article class="lesson cuda-map">
            <h1>{INFO.title}</h1>
            <div class="prose">
                <p>"CUDA gives a thread many ways to wait and to order memory: scopes, fences, memory orders, split barriers, latches, semaphores and a grid-wide barrier. WGSL has far fewer, because it must run on every GPU a browser meets. Its whole kit: barriers that reach one workgroup, atomics on 32-bit integers that are all relaxed, and the end of a dispatch. Each row below says what stands in for a CUDA construct, what is missing, and how to live without it; the link opens a lesson where the WGSL side runs on your GPU."</p>
            </div>
            <div class="returned-wrap">
                <table class="returned cuda-map-table" data-testid="cuda-map-table">
                    <thead><tr><th>"CUDA"</th><th>"WGSL"</th><th>"What WGSL lacks, and what to do instead"</th><th>"See it run"</th></tr></thead>
                    <tbody>
                        {ROWS.iter().map(|r| {
                            let lesson = r.lesson.and_then(crate::lessons::link);
                            view! {
                                <tr>
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
