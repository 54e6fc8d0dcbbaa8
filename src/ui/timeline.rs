//! The run as a picture of who did what, and when: a row per thread, time left to right, a mark
//! for each step a thread took — its kind by shape and colour (load ●, store ■, read-modify-write
//! ◆, barrier │, departure ▯) — the current step highlighted. Two threads' accesses to one cell where one
//! writes are joined, so a race shows as a crossing; a lost update carries a ✕ and a stale read
//! a ring. Clicking a step jumps there, as scrubbing does. Knows no lesson.

use crate::model::{Access, AccessKind, Mark, Trace};
use crate::text::{escape, fixed, Fixed};
use crate::ui::number::Num;
use leptos::prelude::*;
use std::fmt::Write;
use std::sync::Arc;
use wasm_bindgen::JsCast;

const COL_W: f64 = 16.0;
const ROW_H: f64 = 14.0;
const COMPACT_ROW_H: f64 = 6.0;
const LEFT: f64 = 28.0;
const TOP: f64 = 6.0;

fn geometry(threads: usize) -> (f64, bool) {
    let compact = threads >= super::COMPACT_FROM;
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

/// One step's marks as SVG markup: a path per kind (one element for sixty-four lanes' loads, not
/// sixty-four), a ✕ over each lost update, and a ring round each read another thread later
/// overwrote, shown once the overwrite has happened (`data-at`, the step that overwrites it).
fn marks(accesses: &[&Access], row_h: f64, cursor: usize) -> String {
    let r = (row_h * 0.36).max(2.0);
    let mut out = String::new();
    for &(kind, class) in &KINDS {
        let d: String = accesses.iter().filter(|a| a.kind == kind).map(|a| shape(a, row_h)).collect();
        if !d.is_empty() {
            let _ = write!(out, "<path class=\"{class}\" d=\"{d}\"/>");
        }
    }
    let lost: String = accesses
        .iter()
        .filter(|a| matches!(a.mark, Some(Mark::LostUpdate { .. })))
        .map(|a| {
            let (x, y) = centre(a, row_h);
            format!("M{} {}L{} {}M{} {}L{} {}", d(x - r), d(y - r), d(x + r), d(y + r), d(x + r), d(y - r), d(x - r), d(y + r))
        })
        .collect();
    if !lost.is_empty() {
        let _ = write!(out, "<path class=\"tl-lost\" d=\"{lost}\"/>");
    }
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
    for (at, d) in rings {
        let _ = write!(out, "<path class=\"tl-stale\" data-at=\"{at}\" d=\"{d}\" visibility=\"{}\"/>", ring_visibility(at, cursor));
    }
    out
}

/// Shows or hides a drawn column (`display`, so a hidden one takes no clicks).
fn set_display(column: &web_sys::Element, on: bool) {
    let _ = if on { column.remove_attribute("display") } else { column.set_attribute("display", "none") };
}

fn ring_visibility(at: usize, cursor: usize) -> &'static str {
    if cursor >= at {
        "visible"
    } else {
        "hidden"
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
    // As wide as the whole run known so far, so a step adds a column without resizing the page.
    let ticks = Memo::new(move |_| trace.with(|t| t.accesses.iter().map(|a| a.tick).max().unwrap_or(0)));
    let width = move || LEFT + ticks.get().max(cursor.get()).max(1) as f64 * COL_W + 8.0;
    // A step's column as markup: one group, its tooltip, its hit area, the links its accesses
    // end and its marks.
    let column = move |t: &Trace, tick: usize, now: usize, out: &mut String| {
        let h = row_h();
        let full = height();
        let rows = threads.get_untracked();
        // One tooltip per step (not per mark: a wide step would add dozens of nodes).
        let said: Vec<String> = t.at(tick).filter(|a| a.kind != AccessKind::Local).take(4).map(describe).collect();
        let more = t.at(tick).filter(|a| a.kind != AccessKind::Local).count().saturating_sub(4);
        let said = if said.is_empty() { "register work".to_owned() } else { said.join("; ") };
        let title = if more > 0 { format!("step {tick}: {said}; and {more} more") } else { format!("step {tick}: {said}") };
        let _ = write!(
            out,
            "<g class=\"tl-step{}\" data-step=\"{tick}\"><title>{}</title><rect class=\"tl-hit\" x=\"{}\" y=\"0\" width=\"{}\" height=\"{}\"/>",
            if now == tick { " current" } else { "" },
            escape(&title),
            Num(LEFT + (tick - 1) as f64 * COL_W),
            Num(COL_W),
            Num(full)
        );
        // The links whose later access is in this step, drawn with it, as one path.
        let links: String = t
            .links
            .iter()
            .filter(|(_, b)| t.accesses[*b].tick == tick && t.accesses[*b].thread < rows)
            .map(|&(a, b)| {
                let ((x1, y1), (x2, y2)) = (centre(&t.accesses[a], h), centre(&t.accesses[b], h));
                format!("M{} {}L{} {}", d(x1), d(y1), d(x2), d(y2))
            })
            .collect();
        if !links.is_empty() {
            let _ = write!(out, "<path class=\"tl-link\" d=\"{links}\"/>");
        }
        out.push_str(&marks(&t.at(tick).filter(|a| a.thread < rows).collect::<Vec<_>>(), h, now));
        out.push_str("</g>");
    };
    // One effect keeps a column per step reached: stepping forward shows the columns already
    // drawn and adds any new ones as markup, stepping back hides the later ones (they stay, so
    // scrubbing over a stretch again draws nothing), another run (or thread count) draws them
    // all again. (A keyed list of Leptos views cost a sixty-four-lane step a tenth of its time in
    // building each column's attributes and listener; one listener on the columns' group serves
    // them all. Removing the columns on a step back and parsing them again on the step forward
    // cost it a fifth.)
    let svg = NodeRef::<leptos::svg::Svg>::new();
    let steps = NodeRef::<leptos::svg::G>::new();
    // (revision, rows, columns drawn, columns shown)
    let drawn = StoredValue::new((0u64, 0usize, 0usize, 0usize));
    let highlighted = StoredValue::new(None::<usize>);
    let highlight = RenderEffect::new(move |_| {
        let (r, rows, now) = (revision.get(), threads.get(), cursor.get());
        let (Some(svg), Some(group)) = (svg.get(), steps.get()) else { return };
        let (was_r, was_rows, mut made, mut shown) = drawn.get_value();
        if (was_r, was_rows) != (r, rows) {
            group.set_inner_html("");
            (made, shown) = (0, 0);
            highlighted.set_value(None);
        }
        let columns = group.children();
        let show = |tick: usize, on: bool| {
            if let Some(column) = columns.item(tick as u32 - 1) {
                set_display(&column, on);
            }
        };
        (now + 1..=shown.min(made)).for_each(|tick| show(tick, false));
        (shown + 1..=now.min(made)).for_each(|tick| show(tick, true));
        if made < now {
            let mut markup = String::new();
            trace.with(|t| (made + 1..=now).for_each(|tick| column(t, tick, now, &mut markup)));
            let _ = group.insert_adjacent_html("beforeend", &markup);
            made = now;
        }
        shown = now;
        drawn.set_value((r, rows, made, shown));
        // The highlight moves from the step it was on to the cursor's.
        let mark = |tick: usize, on: bool| {
            if let Some(column) = tick.checked_sub(1).and_then(|i| columns.item(i as u32)) {
                let _ = column.class_list().toggle_with_force("current", on);
            }
        };
        let was = highlighted.get_value();
        if let Some(was) = was.filter(|&was| was != now) {
            mark(was, false);
        }
        mark(now, true);
        highlighted.set_value(Some(now));
        // Rings of stale reads whose overwrite the cursor passed, one way or the other (all of
        // them the first time). The trace says which steps overwrite a read, so a step asks the
        // page only for their rings, not for every ring (sixty-four lanes make dozens, and each
        // one asked about is two crossings between wasm and the page).
        let set_rings = |selector: &str, crossed: &dyn Fn(usize) -> bool| {
            let Ok(rings) = svg.query_selector_all(selector) else { return };
            for i in 0..rings.length() {
                let Some(ring) = rings.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
                let at = ring.get_attribute("data-at").and_then(|a| a.parse().ok()).unwrap_or(0);
                if crossed(at) {
                    let _ = ring.set_attribute("visibility", ring_visibility(at, now));
                }
            }
        };
        match was {
            None => set_rings("path.tl-stale", &|_| true),
            // A jump across many steps asks once for every ring.
            Some(was) if was.abs_diff(now) > 4 => set_rings("path.tl-stale", &|at| (was.min(now) + 1..=was.max(now)).contains(&at)),
            Some(was) => {
                for at in was.min(now) + 1..=was.max(now) {
                    let overwrites = trace.with_untracked(|t| t.accesses.iter().any(|a| matches!(a.mark, Some(Mark::StaleRead { at: x, .. }) if x == at)));
                    if overwrites {
                        set_rings(&format!("path.tl-stale[data-at=\"{at}\"]"), &|_| true);
                    }
                }
            }
        }
    });
    // A click on a column goes to its step.
    let clicked = move |e: leptos::ev::MouseEvent| {
        let step = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("g.tl-step").ok().flatten())
            .and_then(|g| g.get_attribute("data-step"))
            .and_then(|s| s.parse::<usize>().ok());
        if let Some(step) = step {
            seek.run(step);
        }
    };
    StoredValue::new_local(highlight);
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
                <svg node_ref=svg width=move || Num(width()) height=move || Num(height()) role="img"
                    aria-label=move || format!("Timeline of the first {} step(s): one row per thread; click a step to go there.", cursor.get())>
                    {labels}
                    <g class="tl-steps" node_ref=steps on:click=clicked></g>
                </svg>
            </div>
            <figcaption class="muted">{LEGEND}</figcaption>
        </figure>
    }
}

const LEGEND: &str = "● load · ■ store · ◆ read-modify-write · │ barrier arrival (green: the last, which opens it) · ▯ departure · ✕ lost update · ○ stale read · lines join two threads on one cell where one writes";

/// The timeline's frame for `threads` threads before its code is in (see [`crate::ui::moving`]):
/// as tall as the timeline, with its legend, so that nothing below it moves when it arrives.
/// `loading` while the code is on its way (marked `data-pending`), not before the run moves.
pub fn placeholder(threads: usize, loading: bool) -> AnyView {
    let height = TOP * 2.0 + threads as f64 * geometry(threads).0;
    view! {
        <figure class="timeline" data-pending=loading.then_some("timeline") data-testid="timeline-placeholder">
            <div class="timeline-scroll"><svg width=Num(LEFT) height=Num(height) aria-hidden="true"></svg></div>
            <figcaption class="muted">{LEGEND}</figcaption>
        </figure>
    }
    .into_any()
}
