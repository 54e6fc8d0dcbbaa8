//! The run as a picture of who did what, and when: a row per thread, time left to right, a mark
//! for each step a thread took — its kind by shape and colour (load ●, store ■, read-modify-write
//! ◆, barrier │, departure ▯) — the current step highlighted. Two threads' accesses to one cell where one
//! writes are joined, so a race shows as a crossing; a lost update carries a ✕ and a stale read
//! a ring. Clicking a step jumps there, as scrubbing does. Knows no lesson.

use crate::model::{Access, AccessKind, Mark, Trace};
use leptos::prelude::*;
use std::sync::Arc;

const COL_W: f64 = 16.0;
const ROW_H: f64 = 14.0;
const COMPACT_ROW_H: f64 = 6.0;
const LEFT: f64 = 28.0;
const TOP: f64 = 6.0;

fn geometry(threads: usize) -> (f64, bool) {
    let compact = threads >= super::scene::COMPACT_FROM;
    (if compact { COMPACT_ROW_H } else { ROW_H }, compact)
}

fn centre(a: &Access, row_h: f64) -> (f64, f64) {
    (LEFT + (a.tick as f64 - 0.5) * COL_W, TOP + (a.thread as f64 + 0.5) * row_h)
}

/// "thread 1 store, erasing thread 0's update": one access in words, for a step's tooltip.
fn describe(a: &Access) -> String {
    let mark = match a.mark {
        Some(Mark::LostUpdate { erased }) => format!(", erasing thread {erased}'s update"),
        Some(Mark::StaleRead { overtaken_by, .. }) => format!(", later overwritten by thread {overtaken_by}"),
        None => String::new(),
    };
    format!("thread {} {}{mark}", a.thread, a.kind.name())
}

/// The mark of one access: its shape says its kind (colour is never the only channel).
fn mark(a: &Access, row_h: f64, cursor: Signal<usize>) -> AnyView {
    let (x, y) = centre(a, row_h);
    let r = (row_h * 0.36).max(2.0);
    let shape = match a.kind {
        AccessKind::Read => view! { <circle class="tl-read" cx=x cy=y r=r /> }.into_any(),
        AccessKind::Write => view! { <rect class="tl-write" x=x - r y=y - r width=2.0 * r height=2.0 * r /> }.into_any(),
        AccessKind::ReadModifyWrite => {
            let points = format!("{x},{} {},{y} {x},{} {},{y}", y - r * 1.3, x + r * 1.3, y + r * 1.3, x - r * 1.3);
            view! { <polygon class="tl-rmw" points=points /> }.into_any()
        }
        AccessKind::Arrive => view! { <rect class="tl-barrier" x=x - 1.5 y=y - r * 1.2 width="3" height=2.4 * r /> }.into_any(),
        AccessKind::Release => view! { <rect class="tl-barrier release" x=x - 2.0 y=y - r * 1.5 width="4" height=3.0 * r /> }.into_any(),
        AccessKind::Depart => view! { <rect class="tl-depart" x=x - 2.0 y=y - r width="4" height=2.0 * r /> }.into_any(),
        AccessKind::Local => view! { <circle class="tl-local" cx=x cy=y r=(r * 0.45).max(1.2) /> }.into_any(),
    };
    let flag = match a.mark {
        Some(Mark::LostUpdate { .. }) => Some(view! {
            <path class="tl-lost" d=format!("M{} {} L{} {} M{} {} L{} {}", x - r, y - r, x + r, y + r, x + r, y - r, x - r, y + r) />
        }.into_any()),
        // Ringed once the overwrite has happened, not before.
        Some(Mark::StaleRead { at, .. }) => Some(view! {
            <circle class="tl-stale" cx=x cy=y r=r + 2.5 visibility=move || { if cursor.get() >= at { "visible" } else { "hidden" } } />
        }.into_any()),
        None => None,
    };
    match flag {
        Some(flag) => view! { {shape}{flag} }.into_any(),
        None => shape,
    }
}

#[component]
pub fn Timeline(
    trace: Memo<Arc<Trace>>,
    /// Changes whenever the run's known steps do: columns are keyed on it.
    #[prop(into)]
    revision: Signal<u64>,
    #[prop(into)] threads: Signal<usize>,
    #[prop(into)] cursor: Signal<usize>,
    seek: Callback<usize>,
    /// The scrolling frame's `data-testid`.
    #[prop(default = "timeline")]
    test_id: &'static str,
) -> impl IntoView {
    let row_h = move || geometry(threads.get()).0;
    let height = move || TOP * 2.0 + threads.get() as f64 * row_h();
    let width = move || LEFT + cursor.get().max(1) as f64 * COL_W + 8.0;
    // One group per step taken, keyed by step: stepping forward adds a column, leaves the rest.
    let steps = move || {
        let r = revision.get();
        (1..=cursor.get()).map(move |tick| (r, tick))
    };
    let column = move |tick: usize| {
        let h = row_h();
        let full = height();
        let rows = threads.get_untracked();
        let marks = trace.with(|t| t.at(tick).filter(|a| a.thread < rows).map(|a| mark(a, h, cursor)).collect_view());
        // The links whose later access is in this step, drawn with it.
        let links = trace.with(|t| {
            t.links
                .iter()
                .filter(|(_, b)| t.accesses[*b].tick == tick && t.accesses[*b].thread < rows)
                .map(|&(a, b)| {
                    let ((x1, y1), (x2, y2)) = (centre(&t.accesses[a], h), centre(&t.accesses[b], h));
                    view! { <line class="tl-link" x1=x1 y1=y1 x2=x2 y2=y2 /> }
                })
                .collect_view()
        });
        // One tooltip per step (not per mark: a wide step would add dozens of nodes).
        let title = trace.with(|t| {
            let said: Vec<String> = t.at(tick).filter(|a| a.kind != AccessKind::Local).take(4).map(describe).collect();
            let more = t.at(tick).filter(|a| a.kind != AccessKind::Local).count().saturating_sub(4);
            let said = if said.is_empty() { "register work".to_owned() } else { said.join("; ") };
            if more > 0 { format!("step {tick}: {said}; and {more} more") } else { format!("step {tick}: {said}") }
        });
        view! {
            <g class="tl-step" class:current=move || cursor.get() == tick data-step=tick
                on:click=move |_| seek.run(tick)>
                <title>{title}</title>
                <rect class="tl-hit" x=LEFT + (tick - 1) as f64 * COL_W y="0" width=COL_W height=full />
                {links}
                {marks}
            </g>
        }
    };
    let labels = move || {
        let h = row_h();
        let compact = geometry(threads.get()).1;
        (0..threads.get())
            .filter(|t| !compact || t % 8 == 0)
            .map(|t| view! { <text class="tl-thread" x="2" y=TOP + (t as f64 + 0.5) * h + 3.5>{format!("t{t}")}</text> })
            .collect_view()
    };
    view! {
        <figure class="timeline">
            <div class="timeline-scroll" data-testid=test_id>
                <svg width=width height=height role="img"
                    aria-label=move || format!("Timeline of the first {} step(s): one row per thread; click a step to go there.", cursor.get())>
                    {labels}
                    <For each=steps key=|step| *step let:step>{column(step.1)}</For>
                </svg>
            </div>
            <figcaption class="muted">
                "● load · ■ store · ◆ read-modify-write · │ barrier arrival (green: the last, which opens it) · ▯ departure · ✕ lost update · ○ stale read · lines join two threads on one cell where one writes"
            </figcaption>
        </figure>
    }
}
