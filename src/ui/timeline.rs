//! The run as a picture of who did what, and when: a row per thread, time left to right, a mark
//! for each step a thread took — its kind by shape and colour (load ●, store ■, read-modify-write
//! ◆, barrier │, departure ▯) — the current step highlighted. Two threads' accesses to one cell where one
//! writes are joined, so a race shows as a crossing; a lost update carries a ✕ and a stale read
//! a ring. Clicking a step jumps there, as scrubbing does. Knows no lesson.

use crate::model::{Access, AccessKind, Mark, Trace};
use crate::text::{fixed, Fixed};
use crate::ui::number::Num;
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

/// A number in path data: to a tenth of a unit.
fn d(v: f64) -> Fixed {
    fixed(v, 1)
}

/// A circle of radius `r` round (`x`, `y`) as path data: two arcs.
fn ring_path(x: f64, y: f64, r: f64) -> String {
    format!("M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0", d(x - r), d(y), d(2.0 * r), d(-2.0 * r), r = d(r))
}

/// The outline of one access's mark, as path data: its shape says its kind (colour is never
/// the only channel).
fn shape(a: &Access, row_h: f64) -> String {
    let (x, y) = centre(a, row_h);
    let r = (row_h * 0.36).max(2.0);
    let rect = |w: f64, h: f64| format!("M{} {}h{}v{}h{}z", d(x - w / 2.0), d(y - h / 2.0), d(w), d(h), d(-w));
    let circle = |r: f64| ring_path(x, y, r);
    match a.kind {
        AccessKind::Read => circle(r),
        AccessKind::Write => rect(2.0 * r, 2.0 * r),
        AccessKind::ReadModifyWrite => {
            let s = r * 1.3;
            format!("M{} {}L{} {}L{} {}L{} {}z", d(x), d(y - s), d(x + s), d(y), d(x), d(y + s), d(x - s), d(y))
        }
        AccessKind::Arrive => rect(3.0, 2.4 * r),
        AccessKind::Release => rect(4.0, 3.0 * r),
        AccessKind::Depart => rect(4.0, 2.0 * r),
        AccessKind::Local => circle((r * 0.45).max(1.2)),
    }
}

/// Each kind's class, in the order they are drawn.
const KINDS: [(AccessKind, &str); 7] = [
    (AccessKind::Local, "tl-local"),
    (AccessKind::Read, "tl-read"),
    (AccessKind::Write, "tl-write"),
    (AccessKind::ReadModifyWrite, "tl-rmw"),
    (AccessKind::Arrive, "tl-barrier"),
    (AccessKind::Release, "tl-barrier release"),
    (AccessKind::Depart, "tl-depart"),
];

/// One step's marks: a path per kind (one element for sixty-four lanes' loads, not sixty-four),
/// a ✕ over each lost update, and a ring round each read another thread later overwrote, shown
/// once the overwrite has happened.
fn marks(accesses: &[&Access], row_h: f64, cursor: Signal<usize>) -> AnyView {
    let r = (row_h * 0.36).max(2.0);
    let kinds = KINDS
        .iter()
        .filter_map(|&(kind, class)| {
            let d: String = accesses.iter().filter(|a| a.kind == kind).map(|a| shape(a, row_h)).collect();
            (!d.is_empty()).then(|| view! { <path class=class d=d /> })
        })
        .collect_view();
    let lost: String = accesses
        .iter()
        .filter(|a| matches!(a.mark, Some(Mark::LostUpdate { .. })))
        .map(|a| {
            let (x, y) = centre(a, row_h);
            format!("M{} {}L{} {}M{} {}L{} {}", d(x - r), d(y - r), d(x + r), d(y + r), d(x + r), d(y - r), d(x - r), d(y + r))
        })
        .collect();
    let lost = (!lost.is_empty()).then(|| view! { <path class="tl-lost" d=lost /> });
    // Rings grouped by the step that overwrites them, so each group is one element.
    let mut rings: Vec<(usize, String)> = Vec::new();
    for a in accesses {
        if let Some(Mark::StaleRead { at, .. }) = a.mark {
            let (x, y) = centre(a, row_h);
            let ring = ring_path(x, y, r + 2.5);
            match rings.iter_mut().find(|(t, _)| *t == at) {
                Some((_, path)) => path.push_str(&ring),
                None => rings.push((at, ring)),
            }
        }
    }
    let rings = rings
        .into_iter()
        .map(|(at, d)| view! { <path class="tl-stale" d=d visibility=move || { if cursor.get() >= at { "visible" } else { "hidden" } } /> })
        .collect_view();
    view! { {kinds}{lost}{rings} }.into_any()
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
    // As wide as the whole run known so far, so a step adds a column without resizing the page.
    let ticks = Memo::new(move |_| trace.with(|t| t.accesses.iter().map(|a| a.tick).max().unwrap_or(0)));
    let width = move || LEFT + ticks.get().max(cursor.get()).max(1) as f64 * COL_W + 8.0;
    // One group per step taken, keyed by step: stepping forward adds a column, leaves the rest.
    let steps = move || {
        let r = revision.get();
        (1..=cursor.get()).map(move |tick| (r, tick))
    };
    let column = move |tick: usize| {
        let h = row_h();
        let full = height();
        let rows = threads.get_untracked();
        let marks = trace.with(|t| marks(&t.at(tick).filter(|a| a.thread < rows).collect::<Vec<_>>(), h, cursor));
        // The links whose later access is in this step, drawn with it, as one path.
        let links: String = trace.with(|t| {
            t.links
                .iter()
                .filter(|(_, b)| t.accesses[*b].tick == tick && t.accesses[*b].thread < rows)
                .map(|&(a, b)| {
                    let ((x1, y1), (x2, y2)) = (centre(&t.accesses[a], h), centre(&t.accesses[b], h));
                    format!("M{} {}L{} {}", d(x1), d(y1), d(x2), d(y2))
                })
                .collect()
        });
        let links = (!links.is_empty()).then(|| view! { <path class="tl-link" d=links /> });
        // One tooltip per step (not per mark: a wide step would add dozens of nodes).
        let title = trace.with(|t| {
            let said: Vec<String> = t.at(tick).filter(|a| a.kind != AccessKind::Local).take(4).map(describe).collect();
            let more = t.at(tick).filter(|a| a.kind != AccessKind::Local).count().saturating_sub(4);
            let said = if said.is_empty() { "register work".to_owned() } else { said.join("; ") };
            if more > 0 {
                format!("step {tick}: {said}; and {more} more")
            } else {
                format!("step {tick}: {said}")
            }
        });
        view! {
            <g class="tl-step" class:current=move || cursor.get() == tick data-step=tick
                on:click=move |_| seek.run(tick)>
                <title>{title}</title>
                <rect class="tl-hit" x=Num(LEFT + (tick - 1) as f64 * COL_W) y="0" width=Num(COL_W) height=Num(full) />
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
            .map(|t| view! { <text class="tl-thread" x="2" y=Num(TOP + (t as f64 + 0.5) * h + 3.5)>{format!("t{t}")}</text> })
            .collect_view()
    };
    view! {
        <figure class="timeline">
            <div class="timeline-scroll" data-testid=test_id>
                <svg width=move || Num(width()) height=move || Num(height()) role="img"
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
