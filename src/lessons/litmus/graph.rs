//! An outcome's execution drawn as a graph, as herd and the papers draw them: one column per
//! thread, its statements as events top to bottom (`W x=1`, `R y=0`, `RMW x 0→1`), barriers as
//! dashed rules across their column, and the relations between events as labelled arrows in
//! herd's colours — program order (po) black, reads-from (rf) red, coherence (co) blue,
//! from-read (fr) orange — plus happens-before through a barrier, green and dashed. The edges
//! of the cycle that explains the verdict are drawn thick and the rest faded: for a forbidden
//! outcome the cycle its rule forbids, for an allowed weak one the cycle no interleaving could
//! close.
//!
//! Pure: it writes SVG text (every label is built from the test's own statements and numbers)
//! and the same edges as a list, for screen readers and for tests.

use crate::model::litmus::sc::Move;
use crate::model::litmus::wgsl::{Execution, Relation};
use crate::model::litmus::{LitmusTest, Op, Order, Rmw, Scope, LOCATIONS};
use crate::model::Space;
use crate::text::{escape, Float};
use std::fmt::Write;

// Columns far enough apart for the arrows between threads and their labels to be read: two
// threads fit a phone's panel, four scroll inside their own box.
/// The graph's own styles, in herd's colours (rf red, co blue, fr orange, po the text's),
/// for light and dark: they come with the lab's code, not in the stylesheet every page loads.
pub const STYLE: &str = r#":root{--rel-rf:#c62828;--rel-co:#1565c0;--rel-fr:#d55e00;--rel-sync:#1f7a3a}
@media (prefers-color-scheme: dark){:root{--rel-rf:#ff7b7b;--rel-co:#6cb4ff;--rel-fr:#ffa552;--rel-sync:#6fd39b}}
.exec-graph-figure { margin: 1rem 0 0; padding: 0.75rem; border: 1px solid var(--border); border-radius: 6px; background: var(--panel); }
.exec-graph-figure.forbidden { border-color: var(--bar-alarm); }
.exec-graph-figure figcaption { margin-bottom: 0.4rem; }
.exec-graph-wrap { overflow-x: auto; }
.exec-graph { display: block; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.exec-graph .g-thread { fill: var(--muted); font-size: 12px; font-weight: 700; }
.exec-graph .g-event rect { fill: var(--code-bg); stroke: var(--border); stroke-width: 1.5; }
.exec-graph .g-event text { fill: var(--fg); }
.exec-graph .g-event text.g-mode { fill: var(--muted); font-size: 11px; }
.exec-graph .g-event.now rect { stroke: var(--accent); stroke-width: 3; }
.exec-graph .g-barrier-rule { stroke: var(--muted); stroke-width: 2; stroke-dasharray: 5 3; }
.exec-graph .g-barrier-name { fill: var(--muted); font-size: 11px; }
.exec-graph .g-edge path { fill: none; stroke-width: 1.6; }
.exec-graph .g-edge text { font-size: 11px; font-weight: 700; paint-order: stroke; stroke: var(--panel); stroke-width: 3px; }
.exec-graph .g-edge.lit path { stroke-width: 3.2; }
.exec-graph .g-edge.faded { opacity: 0.4; }
.exec-graph .g-po path, .exec-graph path.g-po { stroke: var(--fg); fill: var(--fg); }
.exec-graph .g-rf path, .exec-graph path.g-rf { stroke: var(--rel-rf); fill: var(--rel-rf); }
.exec-graph .g-co path, .exec-graph path.g-co { stroke: var(--rel-co); fill: var(--rel-co); }
.exec-graph .g-fr path, .exec-graph path.g-fr { stroke: var(--rel-fr); fill: var(--rel-fr); }
.exec-graph .g-barrier path, .exec-graph path.g-barrier { stroke: var(--rel-sync); fill: var(--rel-sync); }
.exec-graph .g-edge path { fill: none; }
.exec-graph .g-barrier path { stroke-dasharray: 6 3; }
.exec-graph .g-sync path { stroke: var(--rel-sync); fill: none; }
.exec-graph path.g-sync { fill: var(--rel-sync); }
.exec-graph .g-sync text { fill: var(--rel-sync); }
.graph-legend .g-sync { color: var(--rel-sync); }
.exec-graph .g-po text { fill: var(--fg); }
.exec-graph .g-rf text { fill: var(--rel-rf); }
.exec-graph .g-co text { fill: var(--rel-co); }
.exec-graph .g-fr text { fill: var(--rel-fr); }
.exec-graph .g-barrier text { fill: var(--rel-sync); }
.graph-legend { font-size: 0.8rem; color: var(--muted); margin: 0.4rem 0; }
.graph-legend .g-key { font: 700 0.8rem ui-monospace, SFMono-Regular, Menlo, monospace; }
.graph-legend .g-po { color: var(--fg); }
.graph-legend .g-rf { color: var(--rel-rf); }
.graph-legend .g-co { color: var(--rel-co); }
.graph-legend .g-fr { color: var(--rel-fr); }
.graph-legend .g-barrier { color: var(--rel-sync); }
.graph-why { margin: 0.4rem 0; }
.graph-edges { font: 0.8rem ui-monospace, SFMono-Regular, Menlo, monospace; }"#;

const COL_W: f64 = 144.0;
const NODE_W: f64 = 84.0;
const NODE_H: f64 = 26.0;
/// An event with its order and scope on a second line.
const TALL_NODE_H: f64 = 40.0;
const ROW_H: f64 = 62.0;
const TOP: f64 = 30.0;
const PAD: f64 = 8.0;
/// Room right of the last column for the arcs between events of one thread.
const ARC_ROOM: f64 = 30.0;

/// One arrow: from, to, relation, and whether it is part of the cycle the verdict rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: Move,
    pub to: Move,
    pub relation: Relation,
    pub lit: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    pub svg: String,
    pub edges: Vec<Edge>,
    pub width: f64,
    pub height: f64,
}

/// What an event reads and writes in `execution`, e.g. `R y=0`; without an execution, the
/// statement's shape (`R y`).
pub fn event_label(test: &LitmusTest, at: Move, execution: Option<&Execution>) -> String {
    let Some(&op) = test.threads.get(at.0).and_then(|ops| ops.get(at.1)) else { return String::new() };
    let values = execution.and_then(|e| e.values.iter().find(|v| v.0 == at)).map(|&(_, r, w)| (r, w));
    let read = values.and_then(|v| v.0);
    let written = values.and_then(|v| v.1);
    match op {
        Op::Store { loc, value, .. } => format!("W {}={value}", LOCATIONS[loc]),
        Op::Load { loc, .. } => match read {
            Some(v) => format!("R {}={v}", LOCATIONS[loc]),
            None => format!("R {}", LOCATIONS[loc]),
        },
        Op::Rmw { loc, rmw, .. } => match (read, written) {
            (Some(r), Some(w)) => format!("RMW {} {r}→{w}", LOCATIONS[loc]),
            // A compare-exchange that failed: a read only.
            (Some(r), None) if matches!(rmw, Rmw::CompareExchange { .. }) => format!("CAS {}={r} ✗", LOCATIONS[loc]),
            _ => format!("RMW {}", LOCATIONS[loc]),
        },
        Op::Barrier(Space::Workgroup) => "workgroupBarrier".to_owned(),
        Op::Barrier(Space::Storage) => "storageBarrier".to_owned(),
        Op::Fence { order, scope } => format!("F {}·{}", order_short(order), scope_short(scope)),
    }
}

/// An access's order and scope in PTX's short words (`rel·dev`, `acq·wg`, `plain`), and in full
/// for its tooltip; `None` for a barrier and a fence, whose label says both already.
pub fn mode_tag(test: &LitmusTest, op: &Op) -> Option<(String, String)> {
    let mode = match *op {
        Op::Store { mode, .. } | Op::Load { mode, .. } | Op::Rmw { mode, .. } => mode,
        Op::Barrier(_) | Op::Fence { .. } => return None,
    };
    if mode.order == Order::Plain {
        return Some(("plain".to_owned(), "plain (not atomic)".to_owned()));
    }
    let scope = test.scope_of(mode);
    let short = format!("{}·{}", order_short(mode.order), scope_short(scope));
    Some((short, format!("{}, {} scope", mode.order.name(), scope.name())))
}

fn order_short(order: Order) -> &'static str {
    match order {
        Order::Plain => "plain",
        Order::Relaxed => "rlx",
        Order::Acquire => "acq",
        Order::Release => "rel",
        Order::AcqRel => "acq_rel",
        Order::SeqCst => "sc",
    }
}

fn scope_short(scope: Scope) -> &'static str {
    match scope {
        Scope::Workgroup => "wg",
        Scope::Device => "dev",
        Scope::System => "sys",
    }
}

/// The edges an execution graph shows: po between consecutive accesses of a thread, rf from
/// each write to the reads of it, co between consecutive writes of a location, fr from a read
/// to the write right after the one it read; then `lit`'s edges, marked, added where missing.
pub fn edges(test: &LitmusTest, execution: Option<&Execution>, lit: &[(Move, Move, Relation)]) -> Vec<Edge> {
    let mut out: Vec<Edge> = Vec::new();
    let mut add = |from: Move, to: Move, relation: Relation| {
        if !out.iter().any(|e| (e.from, e.to, e.relation) == (from, to, relation)) {
            out.push(Edge { from, to, relation, lit: false });
        }
    };
    for (t, ops) in test.threads.iter().enumerate() {
        let accesses: Vec<usize> = (0..ops.len()).filter(|&i| ops[i].loc().is_some()).collect();
        for pair in accesses.windows(2) {
            add((t, pair[0]), (t, pair[1]), Relation::Po);
        }
    }
    if let Some(e) = execution {
        for &(read, from) in &e.reads_from {
            if let Some(w) = from {
                add(w, read, Relation::Rf);
            }
        }
        for (_, order) in &e.coherence {
            for pair in order.windows(2) {
                add(pair[0], pair[1], Relation::Co);
            }
        }
        for &(read, from) in &e.reads_from {
            let Some(loc) = test.threads[read.0][read.1].loc() else { continue };
            let order = e.coherence.iter().find(|(l, _)| *l == loc).map_or(&[][..], |(_, o)| o.as_slice());
            let after = from.and_then(|w| order.iter().position(|&x| x == w)).map_or(0, |p| p + 1);
            // The next write after the one it read; a read-modify-write's own write is that
            // next one, and its fr edge beyond follows from co.
            if let Some(&next) = order.get(after).filter(|&&next| next != read) {
                add(read, next, Relation::Fr);
            }
        }
    }
    for &(from, to, relation) in lit {
        add(from, to, relation);
    }
    for e in &mut out {
        e.lit = lit.contains(&(e.from, e.to, e.relation));
    }
    out
}

/// A cycle among `edges` (po, rf, co, fr), if there is one: an execution no interleaving
/// produces. Depth first, from each event in turn.
pub fn cycle(edges: &[Edge]) -> Vec<(Move, Move, Relation)> {
    fn walk(edges: &[Edge], start: Move, at: Move, path: &mut Vec<(Move, Move, Relation)>, seen: &mut Vec<Move>) -> bool {
        for e in edges.iter().filter(|e| e.from == at) {
            path.push((e.from, e.to, e.relation));
            if e.to == start {
                return true;
            }
            if !seen.contains(&e.to) {
                seen.push(e.to);
                if walk(edges, start, e.to, path, seen) {
                    return true;
                }
            }
            path.pop();
        }
        false
    }
    let mut starts: Vec<Move> = edges.iter().map(|e| e.from).collect();
    starts.sort_unstable();
    starts.dedup();
    for start in starts {
        let mut path = Vec::new();
        if walk(edges, start, start, &mut path, &mut vec![start]) {
            return path;
        }
    }
    Vec::new()
}

fn centre(at: Move, node_h: f64) -> (f64, f64) {
    (PAD + at.0 as f64 * COL_W + NODE_W / 2.0, TOP + at.1 as f64 * ROW_H + node_h / 2.0)
}

/// The execution graph of `test` as SVG, `execution`'s values on its events, `lit`'s cycle
/// drawn thick; `now` is the statement the model player is on, outlined.
pub fn draw(test: &LitmusTest, execution: Option<&Execution>, lit: &[(Move, Move, Relation)], now: Option<Move>, label: &str) -> Drawing {
    let edges = edges(test, execution, lit);
    let any_lit = edges.iter().any(|e| e.lit);
    // A test beyond WGSL shows each access's order and scope under it; a WGSL test's are all
    // relaxed and the memory's own, said once in the legend.
    let tagged = test.beyond_wgsl().is_some();
    let node_h = if tagged { TALL_NODE_H } else { NODE_H };
    let threads = test.threads.len();
    let rows = test.threads.iter().map(Vec::len).max().unwrap_or(1);
    let width = PAD * 2.0 + threads as f64 * COL_W - (COL_W - NODE_W) + ARC_ROOM;
    let height = TOP + rows as f64 * ROW_H - (ROW_H - node_h) + PAD;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"exec-graph\" role=\"img\" aria-label=\"{}\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\">",
        escape(label),
        width = Float(width),
        height = Float(height),
    );
    svg.push_str("<defs>");
    for r in [Relation::Po, Relation::Rf, Relation::Co, Relation::Fr, Relation::Barrier, Relation::Sync] {
        let _ = write!(
            svg,
            "<marker id=\"g-head-{0}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path class=\"g-{0}\" d=\"M0 0L10 5L0 10z\"/></marker>",
            r.name()
        );
    }
    svg.push_str("</defs>");
    for t in 0..threads {
        // Where the test places its threads itself, each column names its workgroup.
        let group = if test.labelled { format!(" @wg{}", test.groups.get(t).copied().unwrap_or(0)) } else { String::new() };
        let _ = write!(svg, "<text class=\"g-thread\" x=\"{:.1}\" y=\"16\" text-anchor=\"middle\">T{t}{group}</text>", Float(PAD + t as f64 * COL_W + NODE_W / 2.0));
    }
    // Edges under the events.
    for e in &edges {
        svg.push_str(&edge_path(e, any_lit, node_h));
    }
    for (t, ops) in test.threads.iter().enumerate() {
        for (i, op) in ops.iter().enumerate() {
            let x = PAD + t as f64 * COL_W;
            let y = TOP + i as f64 * ROW_H;
            let text = escape(&event_label(test, (t, i), execution));
            if matches!(op, Op::Barrier(_)) {
                // A dashed rule across the column, "barrier" on it; the call in full on hover.
                let _ = write!(
                    svg,
                    "<g class=\"g-barrier-mark\"><title>{text}()</title><line class=\"g-barrier-rule\" x1=\"{x:.1}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\"/><text class=\"g-barrier-name\" x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"middle\">barrier</text></g>",
                    Float(y + node_h / 2.0),
                    Float(x + NODE_W),
                    Float(x + NODE_W * 0.25),
                    Float(y + node_h / 2.0 - 5.0),
                    x = Float(x),
                );
                continue;
            }
            let class = if now == Some((t, i)) { "g-event now" } else { "g-event" };
            let tag = if tagged { mode_tag(test, op) } else { None };
            let _ = write!(
                svg,
                "<g class=\"{class}\" data-event=\"T{t}.{i}\"><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{node_w}\" height=\"{node_h}\" rx=\"5\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{text}</text>",
                Float(x + NODE_W / 2.0),
                Float(if tagged { y + 16.0 } else { y + NODE_H / 2.0 + 4.0 }),
                x = Float(x),
                y = Float(y),
                node_w = Float(NODE_W),
                node_h = Float(node_h),
            );
            if let Some((short, full)) = tag {
                let _ = write!(
                    svg,
                    "<text class=\"g-mode\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" data-mode=\"{}\"><title>{}</title>{}</text>",
                    Float(x + NODE_W / 2.0),
                    Float(y + 32.0),
                    escape(&short),
                    escape(&full),
                    escape(&short)
                );
            }
            svg.push_str("</g>");
        }
    }
    svg.push_str("</svg>");
    Drawing { svg, edges, width, height }
}

/// One arrow and its label. Within a thread: po straight down, anything else an arc on the
/// right; between threads, a curve from the facing sides.
fn edge_path(e: &Edge, any_lit: bool, node_h: f64) -> String {
    let (ax, ay) = centre(e.from, node_h);
    let (bx, by) = centre(e.to, node_h);
    let half = NODE_W / 2.0;
    // Parallel edges of different relations between the same columns part a little.
    let bend = match e.relation {
        Relation::Rf => 0.0,
        Relation::Co => -14.0,
        Relation::Fr => 14.0,
        _ => -28.0,
    };
    let (d, lx, ly) = if e.from.0 == e.to.0 && e.relation == Relation::Po && e.to.1 > e.from.1 {
        let (y1, y2) = (ay + node_h / 2.0, by - node_h / 2.0);
        // Its label a third of the way down, clear of a barrier's rule in the middle.
        (format!("M{ax:.1} {y1:.1}L{bx:.1} {y2:.1}", ax = Float(ax), y1 = Float(y1), bx = Float(bx), y2 = Float(y2)), ax + 10.0, y1 + (y2 - y1) / 3.0 + 4.0)
    } else if e.from.0 == e.to.0 {
        let x = ax + half;
        let reach = 22.0 + (ay - by).abs() / ROW_H * 4.0;
        (format!("M{x:.1} {ay:.1}C{:.1} {ay:.1} {:.1} {by:.1} {x:.1} {by:.1}", Float(x + reach), Float(x + reach), x = Float(x), ay = Float(ay), by = Float(by)), x + reach * 0.75 + 4.0, (ay + by) / 2.0 + 4.0)
    } else {
        let (x1, x2) = if bx > ax { (ax + half, bx - half) } else { (ax - half, bx + half) };
        let mid = (x1 + x2) / 2.0;
        let (c1, c2) = (ay + bend, by + bend);
        (format!("M{x1:.1} {ay:.1}C{mid:.1} {c1:.1} {mid:.1} {c2:.1} {x2:.1} {by:.1}", x1 = Float(x1), ay = Float(ay), mid = Float(mid), c1 = Float(c1), c2 = Float(c2), x2 = Float(x2), by = Float(by)), mid, (ay + by) / 2.0 + bend * 0.75 - 3.0)
    };
    let name = e.relation.name();
    let state = match (any_lit, e.lit) {
        (true, true) => " lit",
        (true, false) => " faded",
        _ => "",
    };
    format!(
        "<g class=\"g-edge g-{name}{state}\" data-edge=\"{name} T{}.{} T{}.{}\"><path d=\"{d}\" marker-end=\"url(#g-head-{name})\"/><text x=\"{lx:.1}\" y=\"{ly:.1}\" text-anchor=\"middle\">{name}</text></g>",
        e.from.0, e.from.1, e.to.0, e.to.1,
        lx = Float(lx),
        ly = Float(ly),
    )
}

