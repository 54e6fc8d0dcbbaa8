//! A second reading of WGSL's memory model, written apart from the lab's engine
//! (`model::litmus::wgsl`) and sharing none of its code, to check it on tests nobody wrote by
//! hand. It works the way herd and the Vulkan model in Alloy do: an execution is a set of
//! events (one initial write per location, every statement of every thread, the barriers) with
//! relations between them — program order `po`, reads-from `rf`, coherence `co`, from-read
//! `fr = rf⁻¹;co`, and the synchronisation `sync` between the matching barriers of one
//! workgroup — and the model is a list of axioms over those relations:
//!
//! - **atomicity**: `rmw ∩ (fr;co)` is empty — no write comes between a read-modify-write and
//!   the write it read;
//! - **coherence**: for each location, `hb|loc ∪ rf ∪ co ∪ fr` is acyclic, where
//!   `hb = (po ∪ sync)⁺` and `sync` joins the k-th barrier of each thread to the k-th of every
//!   other when they share a workgroup and the barrier is of the locations' memory class.
//!
//! Where the engine enumerates reads-from choices and evaluates values by recursion, this one
//! guesses every coherence order first, then every reads-from, computes the values by iterating
//! to a fixed point, and checks the axioms by searching for a cycle.

use crate::model::litmus::{LitmusTest, Op, Outcome, Rmw, LOCATIONS};
use crate::model::Space;
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The initial write of 0 to a location.
    Init,
    Write(u32),
    Read,
    /// A read-modify-write; `writes` is false for a compare-exchange that fails.
    Update { rmw: Rmw, writes: bool },
    /// The `n`-th barrier its thread reaches.
    Barrier { n: usize, kind: Space },
}

#[derive(Clone, Copy, Debug)]
struct Event {
    /// `None` for an initial write.
    thread: Option<usize>,
    /// Position in its thread, statements and barriers counted.
    index: usize,
    loc: Option<usize>,
    kind: Kind,
    /// The register a read fills.
    reg: Option<usize>,
}

impl Event {
    fn writes(&self) -> bool {
        matches!(self.kind, Kind::Init | Kind::Write(_) | Kind::Update { writes: true, .. })
    }
    fn reads(&self) -> bool {
        matches!(self.kind, Kind::Read | Kind::Update { .. })
    }
}

/// A relation over `n` events as a boolean matrix.
#[derive(Clone)]
struct Rel {
    n: usize,
    m: Vec<bool>,
}

impl Rel {
    fn new(n: usize) -> Rel {
        Rel { n, m: vec![false; n * n] }
    }
    fn set(&mut self, a: usize, b: usize) {
        self.m[a * self.n + b] = true;
    }
    fn has(&self, a: usize, b: usize) -> bool {
        self.m[a * self.n + b]
    }
    fn closed(mut self) -> Rel {
        let n = self.n;
        for k in 0..n {
            for a in 0..n {
                if self.has(a, k) {
                    for b in 0..n {
                        if self.has(k, b) {
                            self.set(a, b);
                        }
                    }
                }
            }
        }
        self
    }
    /// Whether the edges among `nodes` have a cycle (depth-first search, three colours).
    fn cyclic_among(&self, nodes: &[usize]) -> bool {
        fn visit(r: &Rel, nodes: &[usize], at: usize, colour: &mut [u8]) -> bool {
            colour[at] = 1;
            for &next in nodes {
                if r.has(at, next) && (colour[next] == 1 || (colour[next] == 0 && visit(r, nodes, next, colour))) {
                    return true;
                }
            }
            colour[at] = 2;
            false
        }
        let mut colour = vec![0u8; self.n];
        nodes.iter().any(|&s| colour[s] == 0 && visit(self, nodes, s, &mut colour))
    }
}

/// The outcomes this reading of the model allows for `test`.
pub fn allowed(test: &LitmusTest) -> BTreeSet<Outcome> {
    let mut base: Vec<Event> =
        (0..LOCATIONS.len()).map(|l| Event { thread: None, index: 0, loc: Some(l), kind: Kind::Init, reg: None }).collect();
    let mut compare_exchanges = Vec::new();
    for (t, ops) in test.threads.iter().enumerate() {
        let mut barriers = 0;
        for (i, op) in ops.iter().enumerate() {
            let (loc, kind, reg) = match *op {
                Op::Store { loc, value, .. } => (Some(loc), Kind::Write(value), None),
                Op::Load { reg, loc, .. } => (Some(loc), Kind::Read, Some(reg)),
                Op::Rmw { reg, loc, rmw, .. } => {
                    if matches!(rmw, Rmw::CompareExchange { .. }) {
                        compare_exchanges.push(base.len());
                    }
                    (Some(loc), Kind::Update { rmw, writes: true }, Some(reg))
                }
                Op::Barrier(kind) => {
                    barriers += 1;
                    (None, Kind::Barrier { n: barriers, kind }, None)
                }
                // Not WGSL: this reading is checked on WGSL's tests only.
                Op::Fence { .. } => continue,
            };
            base.push(Event { thread: Some(t), index: i, loc, kind, reg });
        }
    }
    let n = base.len();
    let hb = happens_before(test, &base);
    let mut out = BTreeSet::new();
    // Each compare-exchange succeeds or fails (weak: it may fail where it would succeed).
    for mask in 0..1u32 << compare_exchanges.len() {
        let mut events = base.clone();
        for (bit, &e) in compare_exchanges.iter().enumerate() {
            if let Kind::Update { rmw, .. } = events[e].kind {
                events[e].kind = Kind::Update { rmw, writes: mask >> bit & 1 == 1 };
            }
        }
        // Coherence orders first: each location's initial write, then its other writes in any order.
        let per_loc: Vec<Vec<usize>> = (0..LOCATIONS.len())
            .map(|l| (LOCATIONS.len()..n).filter(|&e| events[e].loc == Some(l) && events[e].writes()).collect())
            .collect();
        for co_orders in every_combination(&per_loc.iter().map(|ws| every_order(ws)).collect::<Vec<_>>()) {
            let reads: Vec<usize> = (0..n).filter(|&e| events[e].reads()).collect();
            let sources: Vec<Vec<usize>> = reads
                .iter()
                .map(|&r| {
                    let l = events[r].loc.unwrap_or(0);
                    std::iter::once(l).chain(per_loc[l].iter().copied().filter(|&w| w != r)).collect()
                })
                .collect();
            for rf in every_combination(&sources) {
                if let Some(outcome) = check(test, &events, &hb, &co_orders, &reads, &rf) {
                    out.insert(outcome);
                }
            }
        }
    }
    out
}

/// `hb = (po ∪ sync)⁺` over every event, barriers included.
fn happens_before(test: &LitmusTest, events: &[Event]) -> Rel {
    let n = events.len();
    let mut r = Rel::new(n);
    for a in 0..n {
        for b in 0..n {
            let (ea, eb) = (events[a], events[b]);
            if ea.thread.is_some() && ea.thread == eb.thread && ea.index < eb.index {
                r.set(a, b);
            }
            // Barriers synchronise only threads of one workgroup, and only the memory of their class.
            if let (Kind::Barrier { n: na, kind: ka }, Kind::Barrier { n: nb, kind: kb }) = (ea.kind, eb.kind) {
                let together = matches!((ea.thread, eb.thread), (Some(ta), Some(tb)) if test.together(ta, tb));
                let counts = together && ka == test.memory && kb == test.memory;
                if counts && na == nb && ea.thread != eb.thread {
                    r.set(a, b);
                }
            }
        }
    }
    r.closed()
}

/// The outcome of one candidate, if it keeps every axiom and its values are consistent.
fn check(test: &LitmusTest, events: &[Event], hb: &Rel, co_orders: &[Vec<usize>], reads: &[usize], rf: &[usize]) -> Option<Outcome> {
    let n = events.len();
    let source = |e: usize| reads.iter().position(|&r| r == e).map(|i| rf[i]);
    // Values by iteration to a fixed point: a read takes its source's written value, a write
    // writes its constant or its update of what it read.
    let mut read_value: Vec<Option<u32>> = vec![None; n];
    let mut write_value: Vec<Option<u32>> = vec![None; n];
    for _ in 0..=n {
        for e in 0..n {
            match events[e].kind {
                Kind::Init => write_value[e] = Some(0),
                Kind::Write(v) => write_value[e] = Some(v),
                _ => {}
            }
            if events[e].reads() {
                read_value[e] = source(e).and_then(|w| write_value[w]);
            }
            if let (Kind::Update { rmw, writes: true }, Some(old)) = (events[e].kind, read_value[e]) {
                let new = match rmw {
                    Rmw::Add(v) => Some(old.wrapping_add(v)),
                    Rmw::Exchange(v) => Some(v),
                    Rmw::CompareExchange { expected, value } => (old == expected).then_some(value),
                };
                // A compare-exchange said to succeed that read something else: no such execution.
                write_value[e] = Some(new?);
            }
        }
    }
    if reads.iter().any(|&r| read_value[r].is_none()) {
        return None; // a value that depends on itself
    }
    // co as a relation: the initial write first, then the chosen order.
    let mut co = Rel::new(n);
    for (l, order) in co_orders.iter().enumerate() {
        let chain: Vec<usize> = std::iter::once(l).chain(order.iter().copied()).collect();
        for i in 0..chain.len() {
            for j in i + 1..chain.len() {
                co.set(chain[i], chain[j]);
            }
        }
    }
    let mut rf_rel = Rel::new(n);
    for (&r, &w) in reads.iter().zip(rf) {
        rf_rel.set(w, r);
    }
    // fr = rf⁻¹;co, leaving out a read-modify-write's edge to itself.
    let mut fr = Rel::new(n);
    for (&r, &w) in reads.iter().zip(rf) {
        for later in 0..n {
            if co.has(w, later) && later != r {
                fr.set(r, later);
            }
        }
    }
    // Atomicity: rmw ∩ (fr;co) = ∅.
    for &r in reads {
        if matches!(events[r].kind, Kind::Update { writes: true, .. }) && (0..n).any(|w| fr.has(r, w) && co.has(w, r)) {
            return None;
        }
    }
    // Coherence: per location, hb|loc ∪ rf ∪ co ∪ fr acyclic.
    for l in 0..LOCATIONS.len() {
        let nodes: Vec<usize> = (0..n).filter(|&e| events[e].loc == Some(l)).collect();
        let mut union = Rel::new(n);
        for &a in &nodes {
            for &b in &nodes {
                if hb.has(a, b) || rf_rel.has(a, b) || co.has(a, b) || fr.has(a, b) {
                    union.set(a, b);
                }
            }
        }
        if union.cyclic_among(&nodes) {
            return None;
        }
    }
    let mut registers = vec![0u32; test.registers.len()];
    for &r in reads {
        if let Some(reg) = events[r].reg {
            registers[reg] = read_value[r]?;
        }
    }
    let finals = test
        .overwritten()
        .into_iter()
        .map(|l| {
            let last = co_orders[l].last().copied().unwrap_or(l);
            Some((l, write_value[last]?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Outcome { registers, finals })
}

fn every_order(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in every_order(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// Every way of taking one item from each list.
fn every_combination<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = vec![Vec::new()];
    for list in lists {
        out = out.iter().flat_map(|prefix| list.iter().map(move |x| prefix.iter().cloned().chain(std::iter::once(x.clone())).collect())).collect();
    }
    out
}
