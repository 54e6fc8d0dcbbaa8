//! A second reading of the PTX memory model (Dat3M's `cat/ptx-v6.0.cat`), written from the
//! model's published definition and sharing no code with the lab's scoped engine
//! (`model::litmus::scoped`), so that the two can be held to each other on tests nobody checked
//! by hand.
//!
//! It reads the model the way herd reads a cat file: an execution is a set of events (each
//! access, fence and barrier of every thread, as CUDA compiles them to PTX: a `seq_cst` access
//! is a `fence.sc` then the access) with relations between them, and every definition of the
//! cat file — `morally-strong`, `observation`, `release-pattern`, `acquire-pattern`, `sync`,
//! `cause-base`, `cause` — is computed literally, as an expression over relations, and every
//! axiom checked as the file states it — but one. FenceSC is read as the PTX ISA states it, of
//! morally strong pairs: `empty (([F & SC]; cause; [F & SC]) & morally-strong) \ sync_fence`.
//! The file writes it of every pair, so that `cause` between two `fence.sc` out of each other's
//! scope (which `sync_fence`, holding morally strong pairs only, never orders) would rule out
//! the whole test.
//!
//! It enumerates in the opposite order to an engine that picks reads-from and then checks:
//! first which compare-exchanges write (that decides which events exist), then every coherence
//! order — a strict partial order per location that orders each two morally strong writes —
//! then every reads-from, then the values, found by iterating to a fixed point, and last every
//! total order of the `fence.sc` events, which only `sync_fence` (and so `cause`) depends on.

use crate::model::litmus::{LitmusTest, Op, Order, Outcome, Rmw, Scope};
use std::collections::BTreeSet;

/// A set of events, one bit each. The parser allows 4 threads of 6 statements, and a statement
/// becomes at most 3 events (a `seq_cst` read-modify-write: fence, read, write): 72 fit.
type Set = u128;

const MOST_EVENTS: usize = 128;

/// A relation over a program's events: row `a` holds, one bit each, every `b` with `a → b`.
#[derive(Clone, PartialEq, Eq)]
struct Rel {
    rows: Vec<Set>,
}

fn bit(a: usize) -> Set {
    1 << a
}

fn members(set: Set) -> impl Iterator<Item = usize> {
    (0..MOST_EVENTS).filter(move |&a| set & bit(a) != 0)
}

impl Rel {
    fn empty(n: usize) -> Rel {
        Rel { rows: vec![0; n] }
    }

    fn size(&self) -> usize {
        self.rows.len()
    }

    /// Every pair `(a, b)` for which `holds` says so.
    fn such_that(n: usize, holds: impl Fn(usize, usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for a in 0..n {
            for b in 0..n {
                if holds(a, b) {
                    r.add(a, b);
                }
            }
        }
        r
    }

    fn identity(n: usize) -> Rel {
        Rel::such_that(n, |a, b| a == b)
    }

    fn has(&self, a: usize, b: usize) -> bool {
        self.rows[a] & bit(b) != 0
    }

    fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= bit(b);
    }

    fn union(&self, other: &Rel) -> Rel {
        Rel { rows: self.rows.iter().zip(&other.rows).map(|(a, b)| a | b).collect() }
    }

    fn inter(&self, other: &Rel) -> Rel {
        Rel { rows: self.rows.iter().zip(&other.rows).map(|(a, b)| a & b).collect() }
    }

    fn minus(&self, other: &Rel) -> Rel {
        Rel { rows: self.rows.iter().zip(&other.rows).map(|(a, b)| a & !b).collect() }
    }

    /// `self; other`.
    fn seq(&self, other: &Rel) -> Rel {
        let rows = self.rows.iter().map(|&row| members(row).fold(0, |acc, b| acc | other.rows[b])).collect();
        Rel { rows }
    }

    fn inverse(&self) -> Rel {
        Rel::such_that(self.size(), |a, b| self.has(b, a))
    }

    /// `self⁺`.
    fn plus(&self) -> Rel {
        let mut r = self.clone();
        for k in 0..r.size() {
            for a in 0..r.size() {
                if r.has(a, k) {
                    r.rows[a] |= r.rows[k];
                }
            }
        }
        r
    }

    /// `self?`.
    fn opt(&self) -> Rel {
        self.union(&Rel::identity(self.size()))
    }

    /// `[from]; self; [to]`.
    fn between(&self, from: Set, to: Set) -> Rel {
        Rel { rows: self.rows.iter().enumerate().map(|(a, &row)| if from & bit(a) != 0 { row & to } else { 0 }).collect() }
    }

    fn is_empty(&self) -> bool {
        self.rows.iter().all(|&row| row == 0)
    }

    fn is_irreflexive(&self) -> bool {
        (0..self.size()).all(|a| !self.has(a, a))
    }

    fn is_acyclic(&self) -> bool {
        self.plus().is_irreflexive()
    }

    fn is_within(&self, other: &Rel) -> bool {
        self.minus(other).is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Read,
    Write,
    /// `fence.sc` (`sc`) or `fence.acq_rel`; both are ACQ_REL fences.
    Fence {
        sc: bool,
    },
    /// `bar.sync`: the `nth` its thread reaches.
    Barrier {
        nth: usize,
    },
}

#[derive(Clone, Copy, Debug)]
struct Event {
    thread: usize,
    kind: Kind,
    loc: Option<usize>,
    /// Whose threads a strong access or fence is morally strong with.
    scope: Scope,
    /// Not `.weak` (a plain access); fences count as strong by the model's own definition.
    strong: bool,
    /// The ACQ tag of a read.
    acquire: bool,
    /// The REL tag of a write.
    release: bool,
}

/// What a write writes.
#[derive(Clone, Copy, Debug)]
enum Written {
    Constant(u32),
    /// What the read-modify-write makes of the value its read event (`read`) read.
    Update {
        read: usize,
        rmw: Rmw,
    },
}

/// One way the test's statements become events: every event, and the relations that do not
/// depend on which write a read reads.
struct Program {
    events: Vec<Event>,
    /// Each read event and the register it fills.
    registers: Vec<(usize, usize)>,
    /// Each write event and what it writes.
    written: Vec<(usize, Written)>,
    /// Each compare-exchange's read event that writes nothing: what it read was not `expected`.
    failed: Vec<(usize, Rmw)>,
    reads: Set,
    writes: Set,
    sc_fences: Set,
    po: Rel,
    po_loc: Rel,
    same_loc: Rel,
    rmw: Rel,
    morally_strong: Rel,
    sync_barrier: Rel,
    release_pattern: Rel,
    acquire_pattern: Rel,
}

/// Whether a `scope` held by a thread of `owner` contains thread `other`.
fn contains(test: &LitmusTest, scope: Scope, owner: usize, other: usize) -> bool {
    match scope {
        Scope::Workgroup => test.together(owner, other),
        Scope::Device | Scope::System => true,
    }
}

impl Program {
    /// The events of `test` where the `k`-th compare-exchange (in thread order) writes exactly
    /// when `cas_writes(k)`.
    fn new(test: &LitmusTest, cas_writes: impl Fn(usize) -> bool) -> Program {
        let mut events = Vec::new();
        let mut registers = Vec::new();
        let mut written = Vec::new();
        let mut failed = Vec::new();
        let mut rmw_pairs = Vec::new();
        let mut cas = 0;
        for (thread, ops) in test.threads.iter().enumerate() {
            let mut barriers = 0;
            let access = |kind: Kind, loc: usize, order: Order, scope: Scope, acquire: bool, release: bool| Event {
                thread,
                kind,
                loc: Some(loc),
                scope,
                strong: order != Order::Plain,
                acquire,
                release,
            };
            let fence = |sc: bool, scope: Scope| Event { thread, kind: Kind::Fence { sc }, loc: None, scope, strong: true, acquire: false, release: false };
            for op in ops {
                match *op {
                    Op::Store { loc, value, mode } => {
                        let scope = test.scope_of(mode);
                        // st.sc is fence.sc; st.relaxed: the write itself is not REL.
                        if mode.order == Order::SeqCst {
                            events.push(fence(true, scope));
                        }
                        written.push((events.len(), Written::Constant(value)));
                        events.push(access(Kind::Write, loc, mode.order, scope, false, mode.order == Order::Release));
                    }
                    Op::Load { reg, loc, mode } => {
                        let scope = test.scope_of(mode);
                        // ld.sc is fence.sc; ld.acquire.
                        if mode.order == Order::SeqCst {
                            events.push(fence(true, scope));
                        }
                        let acquire = matches!(mode.order, Order::Acquire | Order::SeqCst);
                        registers.push((events.len(), reg));
                        events.push(access(Kind::Read, loc, mode.order, scope, acquire, false));
                    }
                    Op::Rmw { reg, loc, rmw, mode } => {
                        let scope = test.scope_of(mode);
                        // atom.sc is fence.sc; atom.acq_rel.
                        if mode.order == Order::SeqCst {
                            events.push(fence(true, scope));
                        }
                        let acquire = matches!(mode.order, Order::Acquire | Order::AcqRel | Order::SeqCst);
                        let release = matches!(mode.order, Order::Release | Order::AcqRel | Order::SeqCst);
                        let read = events.len();
                        registers.push((read, reg));
                        events.push(access(Kind::Read, loc, mode.order, scope, acquire, false));
                        let writes = match rmw {
                            Rmw::CompareExchange { .. } => {
                                cas += 1;
                                cas_writes(cas - 1)
                            }
                            Rmw::Add(_) | Rmw::Exchange(_) => true,
                        };
                        if writes {
                            rmw_pairs.push((read, events.len()));
                            written.push((events.len(), Written::Update { read, rmw }));
                            events.push(access(Kind::Write, loc, mode.order, scope, false, release));
                        } else {
                            failed.push((read, rmw));
                        }
                    }
                    Op::Fence { order, scope } => events.push(fence(order == Order::SeqCst, scope)),
                    Op::Barrier(_) => {
                        events.push(Event {
                            thread,
                            kind: Kind::Barrier { nth: barriers },
                            loc: None,
                            scope: Scope::Workgroup,
                            strong: false,
                            acquire: false,
                            release: false,
                        });
                        barriers += 1;
                    }
                }
            }
        }
        assert!(events.len() <= MOST_EVENTS, "{} events: more than a test can have", events.len());
        let n = events.len();
        let set = |keep: &dyn Fn(&Event) -> bool| events.iter().enumerate().filter(|(_, e)| keep(e)).fold(0, |acc, (a, _)| acc | bit(a));
        let reads = set(&|e| e.kind == Kind::Read);
        let writes = set(&|e| e.kind == Kind::Write);
        let memory = reads | writes;
        let fences = set(&|e| matches!(e.kind, Kind::Fence { .. }));
        let sc_fences = set(&|e| e.kind == Kind::Fence { sc: true });
        let strong_write = set(&|e| e.kind == Kind::Write && e.strong);
        let strong_read = set(&|e| e.kind == Kind::Read && e.strong);
        let strong_operation = strong_write | strong_read | fences;
        let release_writes = set(&|e| e.kind == Kind::Write && e.release);
        let acquire_reads = set(&|e| e.kind == Kind::Read && e.acquire);

        // Events are pushed thread by thread in program order.
        let po = Rel::such_that(n, |a, b| events[a].thread == events[b].thread && a < b);
        let same_loc = Rel::such_that(n, |a, b| events[a].loc.is_some() && events[a].loc == events[b].loc);
        let po_loc = po.inter(&same_loc);
        let mut rmw = Rel::empty(n);
        for &(r, w) in &rmw_pairs {
            rmw.add(r, w);
        }
        // sr: each one's scope holds the other's thread.
        let same_scope = Rel::such_that(n, |a, b| {
            let (ea, eb) = (&events[a], &events[b]);
            contains(test, ea.scope, ea.thread, eb.thread) && contains(test, eb.scope, eb.thread, ea.thread)
        });
        let ms1 = po.union(&po.inverse()).union(&same_scope.between(strong_operation, strong_operation));
        // Two memory operations overlap completely (same location); any other pair qualifies.
        let ms2 = Rel::such_that(n, |a, b| {
            let both_memory = memory & bit(a) != 0 && memory & bit(b) != 0;
            !both_memory || same_loc.has(a, b)
        });
        let morally_strong = ms1.inter(&ms2).minus(&Rel::identity(n));
        let sync_barrier = Rel::such_that(n, |a, b| match (events[a].kind, events[b].kind) {
            (Kind::Barrier { nth: i }, Kind::Barrier { nth: j }) => {
                i == j && events[a].thread != events[b].thread && test.together(events[a].thread, events[b].thread)
            }
            _ => false,
        });
        let release_pattern = po_loc.opt().between(release_writes, strong_write).union(&po.between(fences, strong_write));
        let acquire_pattern = po_loc.opt().between(strong_read, acquire_reads).union(&po.between(strong_read, fences));
        Program {
            events,
            registers,
            written,
            failed,
            reads,
            writes,
            sc_fences,
            po,
            po_loc,
            same_loc,
            rmw,
            morally_strong,
            sync_barrier,
            release_pattern,
            acquire_pattern,
        }
    }

    fn size(&self) -> usize {
        self.events.len()
    }

    /// The write events of location `loc`.
    fn writes_of(&self, loc: usize) -> Vec<usize> {
        members(self.writes).filter(|&w| self.events[w].loc == Some(loc)).collect()
    }

    /// Every coherence order: per location a strict partial order of its writes (transitive, as
    /// the model's `co = co+` makes it), which orders each two morally strong writes one way or
    /// the other (axiom Coherence2) and may leave any other two unordered.
    fn coherence_orders(&self, locations: usize) -> Vec<Rel> {
        let mut orders = vec![Rel::empty(self.size())];
        for loc in 0..locations {
            let writes = self.writes_of(loc);
            let pairs: Vec<(usize, usize)> = (0..writes.len()).flat_map(|i| (i + 1..writes.len()).map(move |j| (i, j))).collect();
            // Per pair of writes: unordered, first before second, or second before first; a
            // morally strong pair may not stay unordered.
            let options: Vec<&[u8]> =
                pairs.iter().map(|&(i, j)| if self.morally_strong.has(writes[i], writes[j]) { &[1u8, 2][..] } else { &[0u8, 1, 2][..] }).collect();
            let mut of_loc = Vec::new();
            let mut choice = vec![0usize; pairs.len()];
            loop {
                let mut co = Rel::empty(self.size());
                for ((&(i, j), &c), option) in pairs.iter().zip(&choice).zip(&options) {
                    match option[c] {
                        1 => co.add(writes[i], writes[j]),
                        2 => co.add(writes[j], writes[i]),
                        _ => {}
                    }
                }
                // Each pair has one direction at most, so a transitive relation is also acyclic.
                if co.seq(&co).is_within(&co) {
                    of_loc.push(co);
                }
                let Some(k) = (0..pairs.len()).find(|&k| choice[k] + 1 < options[k].len()) else { break };
                choice[k] += 1;
                choice[..k].iter_mut().for_each(|c| *c = 0);
            }
            orders = orders.iter().flat_map(|before| of_loc.iter().map(move |co| before.union(co))).collect();
        }
        orders
    }

    /// Every reads-from: for each read event (in `self.registers` order), the write it reads,
    /// or `None` for the initial value.
    fn reads_from_choices(&self) -> Vec<Vec<Option<usize>>> {
        let mut choices = vec![Vec::new()];
        for &(read, _) in &self.registers {
            let Some(loc) = self.events[read].loc else { continue };
            let sources: Vec<Option<usize>> = std::iter::once(None).chain(self.writes_of(loc).into_iter().map(Some)).collect();
            choices = choices.iter().flat_map(|before: &Vec<Option<usize>>| sources.iter().map(move |&s| [before.clone(), vec![s]].concat())).collect();
        }
        choices
    }

    /// Each read's and each write's value where `rf` says what each read reads, or `None` if no
    /// values agree with it: a compare-exchange that writes but read other than it expected, or
    /// one that writes nothing though it read what it expected, or values that depend only on
    /// themselves (reads-from and read-modify-writes in a cycle, which with wrapping additions
    /// of a non-zero total no value satisfies; additions of 0 would let any value appear from
    /// thin air, which the outcomes cannot list, so a test for this reading adds 1 or more).
    fn values(&self, rf: &[Option<usize>]) -> Option<Vec<u32>> {
        let mut value: Vec<Option<u32>> = vec![None; self.size()];
        loop {
            let mut changed = false;
            for (&(read, _), &source) in self.registers.iter().zip(rf) {
                let v = match source {
                    None => Some(0),
                    Some(w) => value[w],
                };
                if value[read].is_none() && v.is_some() {
                    value[read] = v;
                    changed = true;
                }
            }
            for &(write, what) in &self.written {
                if value[write].is_some() {
                    continue;
                }
                let v = match what {
                    Written::Constant(v) => Some(v),
                    // A compare-exchange taken to write whose read was not what it expected: no
                    // values for this reads-from.
                    Written::Update { read, rmw } => match value[read] {
                        Some(old) => Some(rmw.written(old)?),
                        None => None,
                    },
                };
                if v.is_some() {
                    value[write] = v;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for &(read, rmw) in &self.failed {
            if rmw.written(value[read]?).is_some() {
                return None;
            }
        }
        if members(self.reads | self.writes).any(|e| value[e].is_none()) {
            return None;
        }
        Some(value.iter().map(|v| v.unwrap_or(0)).collect())
    }

    fn reads_from(&self, rf: &[Option<usize>]) -> Rel {
        let mut r = Rel::empty(self.size());
        for (&(read, _), &source) in self.registers.iter().zip(rf) {
            if let Some(w) = source {
                r.add(w, read);
            }
        }
        r
    }

    /// `fr = rf⁻¹; co`, with a read of the initial value before every write of its location
    /// (the initial write is before each of them in `co`).
    fn reads_before(&self, rf: &[Option<usize>], rf_rel: &Rel, co: &Rel) -> Rel {
        let mut fr = rf_rel.inverse().seq(co);
        for (&(read, _), &source) in self.registers.iter().zip(rf) {
            if source.is_none() {
                fr.rows[read] |= self.writes & self.same_loc.rows[read];
            }
        }
        fr
    }

    /// Every strict total order of the `fence.sc` events that keeps each thread's own in
    /// program order.
    fn fence_orders(&self) -> Vec<Rel> {
        let mut orders = Vec::new();
        let mut sequence = Vec::new();
        self.extend_fence_order(self.sc_fences, &mut sequence, &mut orders);
        orders
    }

    fn extend_fence_order(&self, left: Set, sequence: &mut Vec<usize>, orders: &mut Vec<Rel>) {
        if left == 0 {
            let mut order = Rel::empty(self.size());
            for (i, &a) in sequence.iter().enumerate() {
                for &b in &sequence[i + 1..] {
                    order.add(a, b);
                }
            }
            orders.push(order);
            return;
        }
        for next in members(left) {
            // Only a fence none of whose thread's earlier fences is left.
            if members(left).any(|other| self.po.has(other, next)) {
                continue;
            }
            sequence.push(next);
            self.extend_fence_order(left & !bit(next), sequence, orders);
            sequence.pop();
        }
    }

    /// Whether the execution with coherence `co` and reads-from `rf` satisfies every axiom for
    /// some order of the `fence.sc` events.
    fn consistent(&self, co: &Rel, rf: &[Option<usize>], fence_orders: &[Rel]) -> bool {
        let ms = &self.morally_strong;
        let rf_rel = self.reads_from(rf);
        let fr = self.reads_before(rf, &rf_rel, co);

        // Atomicity: no morally strong write between a read-modify-write's read and write.
        if !ms.inter(&fr).seq(&ms.inter(co)).inter(&self.rmw).is_empty() {
            return false;
        }
        // SC-per-Location.
        if !ms.inter(&rf_rel.union(co).union(&fr)).union(&self.po_loc).is_acyclic() {
            return false;
        }

        // observation, the least fixed point of (morally-strong & rf) | (observation; rmw; observation).
        let mut observation = ms.inter(&rf_rel);
        loop {
            let next = observation.union(&observation.seq(&self.rmw).seq(&observation));
            if next == observation {
                break;
            }
            observation = next;
        }
        let sync = ms.inter(&self.release_pattern.seq(&observation).seq(&self.acquire_pattern));
        let po_opt = self.po.opt();
        let w_loc = self.same_loc.between(self.writes, self.writes);
        let rf_fr = rf_rel.union(&fr);

        fence_orders.iter().any(|order| {
            let sync_fence = order.inter(ms);
            let cause_base = po_opt.seq(&sync.union(&sync_fence).union(&self.sync_barrier).seq(&po_opt).plus());
            let cause = cause_base.union(&observation.seq(&cause_base.union(&self.po_loc)));
            // Coherence.
            let coherence = cause.between(self.writes, self.writes).inter(&w_loc).is_within(co);
            // FenceSC.
            let fence_sc = cause.between(self.sc_fences, self.sc_fences).inter(ms).is_within(&sync_fence);
            // Causality.
            let causality = rf_fr.seq(&cause).is_irreflexive();
            coherence && fence_sc && causality
        })
    }

    /// The outcomes an execution gives: its registers, and for each overwritten location the
    /// value of each write nothing is after in `co` (0 where the location has no write).
    fn outcomes(&self, test: &LitmusTest, co: &Rel, value: &[u32]) -> Vec<Outcome> {
        let mut registers = vec![0; test.registers.len()];
        for &(read, reg) in &self.registers {
            registers[reg] = value[read];
        }
        let mut outcomes = vec![Outcome { registers, finals: Vec::new() }];
        for loc in test.overwritten() {
            let writes = self.writes_of(loc);
            let mut last: Vec<u32> = writes.iter().filter(|&&w| co.rows[w] == 0).map(|&w| value[w]).collect();
            if writes.is_empty() {
                last.push(0);
            }
            outcomes = outcomes
                .iter()
                .flat_map(|o| {
                    last.iter().map(move |&v| {
                        let mut o = o.clone();
                        o.finals.push((loc, v));
                        o
                    })
                })
                .collect();
        }
        outcomes
    }
}

/// Every outcome of `test` that some execution consistent with the PTX model produces.
pub fn allowed(test: &LitmusTest) -> BTreeSet<Outcome> {
    let compare_exchanges = test.threads.iter().flatten().filter(|op| matches!(op, Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).count();
    let locations = crate::model::litmus::LOCATIONS.len();
    let mut found = BTreeSet::new();
    for writing in 0..1u32 << compare_exchanges {
        let program = Program::new(test, |k| writing & (1 << k) != 0);
        let fence_orders = program.fence_orders();
        let reads_from = program.reads_from_choices();
        for co in program.coherence_orders(locations) {
            for rf in &reads_from {
                let Some(value) = program.values(rf) else { continue };
                let outcomes = program.outcomes(test, &co, &value);
                // Deciding consistency is the cost; an execution that adds nothing needs none.
                if outcomes.iter().all(|o| found.contains(o)) {
                    continue;
                }
                if program.consistent(&co, rf, &fence_orders) {
                    found.extend(outcomes);
                }
            }
        }
    }
    found
}
