//! WGSL's memory model, as candidate executions: each read given a write to read from (or the
//! initial 0), each location's writes a coherence order, each compare-exchange success or
//! failure; the candidates that keep the rules are the executions the model allows.
//!
//! The rules, for a test whose atomics are all relaxed (WGSL has no other kind):
//! - **atomicity**: a read-modify-write writes immediately after the write it read, in its
//!   location's coherence order: nothing comes between;
//! - **coherence**: nothing happens before something it must follow in its location's order —
//!   no cycle of happens-before with reads-from, coherence and from-read on one location.
//!   Happens-before is program order and, among invocations of one workgroup, a barrier of the
//!   locations' memory class: `workgroupBarrier()` for workgroup memory, `storageBarrier()` for
//!   storage; what comes before it in any thread happens before what comes after it in every
//!   other. Nothing orders invocations of different workgroups within a dispatch.
//!
//! No rule orders accesses to different locations, so every weak outcome of the classic tests
//! (message passing, store buffering, load buffering, …) is allowed without barriers.

use super::sc::Move;
use super::{permutations, product, LitmusTest, Op, Outcome, Rmw, LOCATIONS};
use crate::model::Space;
use std::collections::BTreeMap;

/// A candidate execution: what each read read from (`None`: the initial 0), each location's
/// coherence order, and what every memory statement read and wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    pub reads_from: Vec<(Move, Option<Move>)>,
    pub coherence: Vec<(usize, Vec<Move>)>,
    /// `(statement, value read, value written)`; a compare-exchange that failed wrote nothing.
    pub values: Vec<(Move, Option<u32>, Option<u32>)>,
}

/// The relations an execution graph draws, named as herd names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Relation {
    /// Program order: one thread's statements, in order.
    Po,
    /// Reads-from: from a write to the read that takes its value.
    Rf,
    /// Coherence: from a write to a later one in its location's order.
    Co,
    /// From-read: from a read to a write that overwrote (directly or not) the value it read.
    Fr,
    /// Happens-before through a barrier: from a statement before a workgroup's barrier to one
    /// after it in another thread.
    Barrier,
    /// The scoped model's synchronises-with: from a release (or a fence before a write) to the
    /// acquire (or a fence after a read) that observes it, or between ordered seq_cst fences.
    Sync,
}

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Relation::Po => "po",
            Relation::Rf => "rf",
            Relation::Co => "co",
            Relation::Fr => "fr",
            Relation::Barrier => "barrier",
            Relation::Sync => "sync",
        }
    }
}

/// The rule a candidate breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Atomicity,
    Coherence,
    /// No candidate writes the values where they are read.
    NoSuchValues,
}

/// Why an outcome is forbidden: one candidate execution producing it (the first found), the
/// rule it breaks and the cycle of edges that breaks it, in order around the cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub rule: Rule,
    /// The rule and the statements involved, in a sentence.
    pub why: String,
    pub execution: Option<Execution>,
    pub cycle: Vec<(Move, Move, Relation)>,
}

impl Refusal {
    /// An outcome no candidate produces at all.
    pub fn no_such_values() -> Refusal {
        Refusal {
            rule: Rule::NoSuchValues,
            why: "no execution produces these values: no write stores them where they are read".to_owned(),
            execution: None,
            cycle: Vec::new(),
        }
    }
}

/// What the model says of the outcomes some candidate execution produces: an execution for
/// each allowed one, and for each other why a candidate producing it is refused (every other
/// candidate producing it is refused too). An outcome in neither map is produced by no
/// candidate at all.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    pub allowed: BTreeMap<Outcome, Execution>,
    pub forbidden: BTreeMap<Outcome, Refusal>,
}

// `coherence` keeps one location's events as the bits of a u32.
const _: () = assert!(super::MAX_THREADS * super::MAX_STATEMENTS <= 32);

#[derive(Clone, Copy)]
struct Event {
    at: Move,
    op: Op,
}

/// How many candidate executions [`verdicts`] weighs: for each location, each of its
/// compare-exchanges' success or failure, each of its reads' source, each order of its writes;
/// summed over the locations, which it weighs apart. Saturates.
pub fn candidates(test: &LitmusTest) -> u128 {
    let ops: Vec<Op> = test.threads.iter().flatten().copied().filter(|op| op.loc().is_some()).collect();
    (0..LOCATIONS.len())
        .map(|l| {
            let here = || ops.iter().filter(move |op| op.loc() == Some(l));
            let cas = here().filter(|op| matches!(op, Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).count() as u32;
            let writes = here().filter(|op| matches!(op, Op::Store { .. } | Op::Rmw { .. })).count() as u128;
            let reads = here().filter(|op| matches!(op, Op::Load { .. } | Op::Rmw { .. })).count() as u32;
            let orders: u128 = (1..=writes).fold(1u128, |a, k| a.saturating_mul(k));
            1u128.checked_shl(cas).unwrap_or(u128::MAX).saturating_mul(orders).saturating_mul((writes + 1).saturating_pow(reads))
        })
        .fold(0u128, u128::saturating_add)
}

/// An outcome seen from one location: the values its reads put in their registers, and its
/// final value where the outcome lists one.
type Key = (Vec<(usize, u32)>, Option<u32>);

/// What one location's candidate executions produce, by [`Key`]: an execution the rules allow,
/// or the first refused one.
#[derive(Default)]
struct Part {
    allowed: BTreeMap<Key, Execution>,
    refused: BTreeMap<Key, Refusal>,
}

/// Every outcome some candidate produces, allowed or refused, weighed one location at a time.
///
/// With relaxed atomics nothing a read returns orders anything (there is no release or
/// acquire): happens-before is program order and the barriers, fixed before any value is
/// known, and both rules speak of one location at a time. So a candidate of the whole test
/// keeps the rules exactly when its part on each location does, and an outcome is allowed
/// exactly when each location's part of it is. Weighing the locations apart costs the sum of
/// their candidates rather than the product (the tests check this against a reading that
/// weighs whole executions).
pub fn verdicts(test: &LitmusTest) -> Verdicts {
    let all: Vec<Event> = test
        .threads
        .iter()
        .enumerate()
        .flat_map(|(t, ops)| ops.iter().enumerate().filter(|(_, op)| op.loc().is_some()).map(move |(i, op)| Event { at: (t, i), op: *op }))
        .collect();
    let overwritten = test.overwritten();
    let parts: Vec<Part> = (0..LOCATIONS.len())
        .map(|l| {
            let events: Vec<Event> = all.iter().filter(|e| e.op.loc() == Some(l)).copied().collect();
            let hb = happens_before(test, &events);
            location_part(&events, &hb, l, overwritten.contains(&l))
        })
        .collect();
    let mut out = Verdicts::default();
    for outcome in test.outcomes() {
        let keys: Vec<Key> = (0..LOCATIONS.len()).map(|l| key_of(&all, l, &outcome)).collect();
        let allowed: Vec<Option<&Execution>> = parts.iter().zip(&keys).map(|(p, k)| p.allowed.get(k)).collect();
        if allowed.iter().all(Option::is_some) {
            out.allowed.insert(outcome, merge(allowed.into_iter().flatten()));
            continue;
        }
        // Forbidden if every location's part is produced by some candidate and one's is refused.
        let produced = parts.iter().zip(&keys).all(|(p, k)| p.allowed.contains_key(k) || p.refused.contains_key(k));
        let Some(l) = (0..LOCATIONS.len()).find(|&l| !parts[l].allowed.contains_key(&keys[l])) else { continue };
        if !produced {
            continue;
        }
        let mut refusal = parts[l].refused[&keys[l]].clone();
        let pieces = parts.iter().zip(&keys).filter_map(|(p, k)| p.allowed.get(k).or_else(|| p.refused.get(k).and_then(|r| r.execution.as_ref())));
        refusal.execution = Some(merge(pieces));
        out.forbidden.insert(outcome, refusal);
    }
    out
}

/// Location `l`'s part of `outcome`: the registers its reads fill, and its final value if listed.
fn key_of(all: &[Event], l: usize, outcome: &Outcome) -> Key {
    let registers = all
        .iter()
        .filter(|e| e.op.loc() == Some(l))
        .filter_map(
            |e| if let Op::Load { reg, .. } | Op::Rmw { reg, .. } = e.op { Some((reg, outcome.registers.get(reg).copied().unwrap_or(0))) } else { None },
        )
        .collect();
    (registers, outcome.finals.iter().find(|(f, _)| *f == l).map(|&(_, v)| v))
}

/// One execution made of the locations' parts, each list in the order of the statements.
fn merge<'a>(pieces: impl Iterator<Item = &'a Execution>) -> Execution {
    let mut e = Execution { reads_from: Vec::new(), coherence: Vec::new(), values: Vec::new() };
    for p in pieces {
        e.reads_from.extend(p.reads_from.iter().copied());
        e.coherence.extend(p.coherence.iter().cloned());
        e.values.extend(p.values.iter().copied());
    }
    e.reads_from.sort_unstable();
    e.coherence.sort_unstable();
    e.values.sort_unstable();
    e
}

/// Where a key stands in a location's part so far.
#[derive(Clone, Copy, PartialEq)]
enum Known {
    Unseen,
    Refused,
    Allowed,
}

/// Every candidate execution of one location's `events` (each compare-exchange's success or
/// failure, each read's source, the order of the writes), weighed against both rules.
fn location_part(events: &[Event], hb: &[u32], l: usize, overwritten: bool) -> Part {
    let cas: Vec<usize> = (0..events.len()).filter(|&e| matches!(events[e].op, Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).collect();
    let reads: Vec<usize> = (0..events.len()).filter(|&e| matches!(events[e].op, Op::Load { .. } | Op::Rmw { .. })).collect();
    let mut out = Part::default();
    for successes in 0..1u32 << cas.len() {
        let writes_at = |e: usize| match events[e].op {
            Op::Store { .. } => true,
            Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. } => successes >> cas.iter().position(|&c| c == e).unwrap_or(0) & 1 == 1,
            Op::Rmw { .. } => true,
            _ => false,
        };
        let mut writes: Vec<Vec<usize>> = vec![Vec::new(); LOCATIONS.len()];
        writes[l] = (0..events.len()).filter(|&e| writes_at(e)).collect();
        // Each read's choices: the initial value, or any other write to the location.
        let choices: Vec<Vec<Option<usize>>> =
            reads.iter().map(|&r| std::iter::once(None).chain(writes[l].iter().copied().filter(|&w| w != r).map(Some)).collect()).collect();
        let every_order: Vec<Order> = orders(&writes).into_iter().map(Order::of).collect();
        for rf in product(&choices) {
            let source = |e: usize| reads.iter().position(|&r| r == e).and_then(|i| rf[i]);
            let Some(values) = values(events, &reads, &rf, &writes_at) else { continue };
            let registers: Vec<(usize, u32)> = reads
                .iter()
                .filter_map(|&r| if let Op::Load { reg, .. } | Op::Rmw { reg, .. } = events[r].op { Some((reg, values[r].0.unwrap_or(0))) } else { None })
                .collect();
            // What is known of this source's keys (one per final value), looked up in `out` once
            // each rather than once per order: a large test has tens of thousands of orders.
            let mut known: Vec<(Option<u32>, Known)> = Vec::new();
            for order in &every_order {
                let co = &order.co;
                let last = overwritten.then(|| co[l].last().and_then(|&w| values[w].1).unwrap_or(0));
                let at = match known.iter().position(|(k, _)| *k == last) {
                    Some(at) => at,
                    None => {
                        let key = (registers.clone(), last);
                        let was = if out.allowed.contains_key(&key) {
                            Known::Allowed
                        } else if out.refused.contains_key(&key) {
                            Known::Refused
                        } else {
                            Known::Unseen
                        };
                        known.push((last, was));
                        known.len() - 1
                    }
                };
                if known[at].1 == Known::Allowed {
                    continue;
                }
                let execution = || Execution {
                    reads_from: reads.iter().zip(&rf).map(|(&r, w)| (events[r].at, w.map(|w| events[w].at))).collect(),
                    coherence: if co[l].is_empty() { Vec::new() } else { vec![(l, co[l].iter().map(|&e| events[e].at).collect())] },
                    values: events.iter().zip(&values).map(|(e, &(r, w))| (e.at, r, w)).collect(),
                };
                // Most candidates break a rule, and most outcomes are refused many times over:
                // the words and the cycle are worked out only for the first refusal of each.
                let explain = known[at].1 == Known::Unseen;
                let key = || (registers.clone(), last);
                match atomicity(events, co, &source, explain).or_else(|| coherence(events, hb, order, &reads, &rf, explain)) {
                    None => {
                        out.refused.remove(&key());
                        out.allowed.insert(key(), execution());
                        known[at].1 = Known::Allowed;
                    }
                    Some((rule, why, cycle)) => {
                        if explain {
                            out.refused.insert(key(), Refusal { rule, why, execution: Some(execution()), cycle });
                            known[at].1 = Known::Refused;
                        }
                    }
                }
            }
        }
    }
    out
}

/// Happens-before among the memory events: program order, and for one shared workgroup the
/// barriers of the locations' memory class; closed transitively.
/// Row `a` holds the events `a` happens before, as bits (one location's events fit a u32).
fn happens_before(test: &LitmusTest, events: &[Event]) -> Vec<u32> {
    let n = events.len();
    // The k-th barrier of every thread is one barrier of the workgroup (the lab refuses tests
    // whose threads' barriers differ): it orders what comes before it in any thread before what
    // comes after it in every other, when the threads share a workgroup and it is of the
    // locations' memory class.
    let kinds = |t: usize| -> Vec<Space> { test.threads[t].iter().filter_map(|op| if let Op::Barrier(k) = op { Some(*k) } else { None }).collect() };
    let kinds: Vec<Vec<Space>> = (0..test.threads.len()).map(kinds).collect();
    let orders = |t: usize, k: usize| kinds[t].get(k) == Some(&test.memory);
    // How many barriers thread t has passed before its statement i.
    let passed = |(t, i): Move| test.threads[t][..i].iter().filter(|op| matches!(op, Op::Barrier(_))).count();
    let mut hb = vec![0u32; n];
    for (a, row) in hb.iter_mut().enumerate() {
        for b in 0..n {
            let (ta, ia) = events[a].at;
            let (tb, ib) = events[b].at;
            let through_barrier = || test.together(ta, tb) && (passed(events[a].at)..passed(events[b].at)).any(|k| orders(ta, k));
            if (ta == tb && ia < ib) || (ta != tb && through_barrier()) {
                *row |= 1 << b;
            }
        }
    }
    for k in 0..n {
        for a in 0..n {
            if hb[a] >> k & 1 == 1 {
                hb[a] |= hb[k];
            }
        }
    }
    hb
}

/// Every coherence order: each location's writes in every order.
fn orders(writes: &[Vec<usize>]) -> Vec<Vec<Vec<usize>>> {
    product(&writes.iter().map(|ws| permutations(ws)).collect::<Vec<_>>())
}

/// What every event read and wrote, following reads-from; `None` where a value would depend on
/// itself or a compare-exchange succeeds on a value it did not expect.
fn values(events: &[Event], reads: &[usize], rf: &[Option<usize>], writes_at: &dyn Fn(usize) -> bool) -> Option<Vec<(Option<u32>, Option<u32>)>> {
    fn written(e: usize, events: &[Event], reads: &[usize], rf: &[Option<usize>], writes_at: &dyn Fn(usize) -> bool, depth: usize) -> Option<u32> {
        if depth > events.len() {
            return None;
        }
        match events[e].op {
            Op::Store { value, .. } => Some(value),
            Op::Rmw { rmw, .. } => {
                let old = read(e, events, reads, rf, writes_at, depth + 1)?;
                match rmw.written(old) {
                    Some(v) if writes_at(e) => Some(v),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    fn read(e: usize, events: &[Event], reads: &[usize], rf: &[Option<usize>], writes_at: &dyn Fn(usize) -> bool, depth: usize) -> Option<u32> {
        let i = reads.iter().position(|&r| r == e)?;
        match rf[i] {
            None => Some(0),
            Some(w) => written(w, events, reads, rf, writes_at, depth),
        }
    }
    (0..events.len())
        .map(|e| {
            let r = if reads.contains(&e) { Some(read(e, events, reads, rf, writes_at, 0)?) } else { None };
            let w = if writes_at(e) { Some(written(e, events, reads, rf, writes_at, 0)?) } else { None };
            Some((r, w))
        })
        .collect()
}

fn describe(events: &[Event], e: usize) -> String {
    let (t, i) = events[e].at;
    format!("T{t}'s statement {}", i + 1)
}

/// A broken rule: which, in a sentence, and the cycle of edges that breaks it.
type Broken = (Rule, String, Vec<(Move, Move, Relation)>);

/// A read-modify-write must follow the write it read immediately in coherence order.
fn atomicity(events: &[Event], co: &[Vec<usize>], source: &dyn Fn(usize) -> Option<usize>, explain: bool) -> Option<Broken> {
    for (l, order) in co.iter().enumerate() {
        for (pos, &e) in order.iter().enumerate() {
            if !matches!(events[e].op, Op::Rmw { .. }) {
                continue;
            }
            let read = source(e);
            let expected = match read {
                None => 0,
                Some(w) => order.iter().position(|&x| x == w)? + 1,
            };
            if pos != expected && !explain {
                return Some((Rule::Atomicity, String::new(), Vec::new()));
            }
            let what = read.map_or("the initial 0".to_owned(), |w| format!("what {} wrote", describe(events, w)));
            if pos > expected {
                // Another write lands between the value it read and its own.
                let between = order[expected];
                return Some((
                    Rule::Atomicity,
                    format!(
                        "atomicity: the read-modify-write {} reads {what} to {}, but {} writes {} in between",
                        describe(events, e),
                        LOCATIONS[l],
                        describe(events, between),
                        LOCATIONS[l]
                    ),
                    vec![(events[e].at, events[between].at, Relation::Fr), (events[between].at, events[e].at, Relation::Co)],
                ));
            }
            if let (true, Some(w)) = (pos < expected, read) {
                // It reads a write that comes after its own in the location's order.
                return Some((
                    Rule::Atomicity,
                    format!(
                        "atomicity: the read-modify-write {} reads {what}, yet its own write to {} comes before that one",
                        describe(events, e),
                        LOCATIONS[l]
                    ),
                    vec![(events[w].at, events[e].at, Relation::Rf), (events[e].at, events[w].at, Relation::Co)],
                ));
            }
        }
    }
    None
}

/// One coherence order, with what [`coherence`] needs of it worked out once rather than once per
/// candidate: each write's place, its coherence edges as bits, and the writes from each place on.
struct Order {
    co: Vec<Vec<usize>>,
    rank: [usize; 32],
    /// `co_bits[a]`: the writes after `a`.
    co_bits: [u32; 32],
    /// `from[p]`: the writes at place `p` and after, for each location's order (the one there is).
    from: Vec<[u32; 33]>,
}

impl Order {
    fn of(co: Vec<Vec<usize>>) -> Order {
        let mut rank = [usize::MAX; 32];
        let mut co_bits = [0u32; 32];
        let mut from = Vec::with_capacity(co.len());
        for order in &co {
            let mut suffix = [0u32; 33];
            for (i, &e) in order.iter().enumerate().rev() {
                rank[e] = i;
                co_bits[e] = suffix[i + 1];
                suffix[i] = suffix[i + 1] | 1 << e;
            }
            from.push(suffix);
        }
        Order { co, rank, co_bits, from }
    }
}

/// No cycle of happens-before with one location's reads-from, coherence and from-read.
fn coherence(events: &[Event], hb: &[u32], order: &Order, reads: &[usize], rf: &[Option<usize>], explain: bool) -> Option<Broken> {
    let n = events.len();
    let Order { co, rank, co_bits, from } = order;
    // eco: reads-from, coherence and from-read, closed transitively. One location's events
    // number at most MAX_THREADS × MAX_STATEMENTS, so each row is a set of bits: this runs once
    // per candidate, tens of thousands of times for a large test, and bits keep it to a few
    // hundred operations.
    let mut eco = *co_bits;
    for (&r, w) in reads.iter().zip(rf) {
        let l = events[r].op.loc().unwrap_or(0);
        if let Some(w) = *w {
            eco[w] |= 1 << r;
        }
        // From-read: to every write after the one it read (after none: the initial value).
        let after = w.filter(|&w| rank[w] != usize::MAX).map_or(0, |w| rank[w] + 1);
        eco[r] |= from[l][after.min(co[l].len())] & !(1 << r);
    }
    for k in 0..n {
        for a in 0..n {
            if eco[a] >> k & 1 == 1 {
                eco[a] |= eco[k];
            }
        }
    }
    for (a, &row) in hb.iter().enumerate().take(n) {
        let mut later = row;
        while later != 0 {
            let b = later.trailing_zeros() as usize;
            later &= later - 1;
            if eco[b] >> a & 1 == 0 {
                continue;
            }
            if !explain {
                return Some((Rule::Coherence, String::new(), Vec::new()));
            }
            return Some(explain_coherence(events, co, rank, reads, rf, a, b));
        }
    }
    None
}

/// The words and the cycle for `a` happening before `b` while `b` comes first in eco.
fn explain_coherence(events: &[Event], co: &[Vec<usize>], rank: &[usize; 32], reads: &[usize], rf: &[Option<usize>], a: usize, b: usize) -> Broken {
    let mut edges = Vec::new();
    for order in co {
        for (i, &x) in order.iter().enumerate() {
            for &y in &order[i + 1..] {
                edges.push((x, y, Relation::Co));
            }
        }
    }
    for (&r, w) in reads.iter().zip(rf) {
        let order = &co[events[r].op.loc().unwrap_or(0)];
        if let Some(w) = *w {
            edges.push((w, r, Relation::Rf));
        }
        let after = w.filter(|&w| rank[w] != usize::MAX).map_or(0, |w| rank[w] + 1);
        for &later in &order[after.min(order.len())..] {
            if later != r {
                edges.push((r, later, Relation::Fr));
            }
        }
    }
    let l = events[a].op.loc().unwrap_or(0);
    let ordered = if events[a].at.0 == events[b].at.0 { Relation::Po } else { Relation::Barrier };
    let mut cycle = vec![(events[a].at, events[b].at, ordered)];
    cycle.extend(path(&edges, b, a).into_iter().map(|(x, y, r)| (events[x].at, events[y].at, r)));
    (
        Rule::Coherence,
        format!(
            "coherence: {} happens before {}, yet in the order of {} (reads-from, coherence, from-read) {} comes first: a cycle",
            describe(events, a),
            describe(events, b),
            LOCATIONS[l],
            describe(events, b)
        ),
        cycle,
    )
}

/// The shortest path of `edges` from `from` to `to` (breadth first), as its edges.
fn path(edges: &[(usize, usize, Relation)], from: usize, to: usize) -> Vec<(usize, usize, Relation)> {
    let mut came: BTreeMap<usize, (usize, usize, Relation)> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            break;
        }
        for &(x, y, r) in edges.iter().filter(|e| e.0 == at) {
            if y != from && !came.contains_key(&y) {
                came.insert(y, (x, y, r));
                queue.push_back(y);
            }
        }
    }
    let mut out = Vec::new();
    let mut at = to;
    while at != from {
        let Some(&edge) = came.get(&at) else { return Vec::new() };
        out.push(edge);
        at = edge.0;
    }
    out.reverse();
    out
}
