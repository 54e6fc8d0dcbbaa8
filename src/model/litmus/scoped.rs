//! The scoped model: what CUDA promises, as the PTX ISA's memory consistency model defines it
//! (Lustig, Sahasrabuddhe and Giroux, "A Formal Analysis of the NVIDIA PTX Memory Consistency
//! Model", ASPLOS 2019), over candidate executions like [`super::wgsl`]'s but whole: every read's
//! source, every location's coherence order and an order of the `seq_cst` fences, chosen at once.
//!
//! The pieces, in the model's words:
//! - a **strong** access is atomic (relaxed or stronger) and has a scope; a plain one is weak.
//!   Fences are strong too. Two operations are **morally strong** when one comes before the other
//!   in its thread, or when both are strong and each one's scope includes the other's thread
//!   (and, for two accesses, they touch the same location);
//! - **observation**: a morally strong reads-from, possibly through a chain of read-modify-writes;
//! - a **release pattern** is a release write, or a fence followed in its thread by a strong
//!   write; an **acquire pattern** is an acquire read, or a strong read followed by a fence;
//! - **synchronises-with** (`sync`): a release pattern observed by an acquire pattern, the two
//!   ends morally strong; a barrier synchronises the threads of one workgroup; and `seq_cst`
//!   fences that are morally strong are ordered one way or the other (the fence-SC order);
//! - **causality order** (`cause`): program order and those synchronisations, chained, and
//!   observation followed by either.
//!
//! An execution is allowed when it keeps every axiom: **SC-per-location** (morally strong
//! reads-from, coherence and from-read, with program order on one location, have no cycle),
//! **coherence** (writes ordered by causality are in that coherence order), **fence-SC** (the
//! fence order agrees with causality between morally strong fences), **atomicity** (nothing morally strong comes between a
//! read-modify-write's read and write) and **causality** (no read is caused by a write that
//! overwrote what it read, nor causes the write it reads). No-thin-air holds of every test the
//! lab can write: its statements have no dependencies.
//!
//! How the text maps onto PTX, as CUDA compiles it: `seq_cst` loads and stores are a `fence.sc`
//! of their scope, then an acquire load or a relaxed store (a `seq_cst` read-modify-write: the
//! fence, then an `acq_rel` one); `__threadfence*()` are `fence.sc`; other fences are
//! `fence.acq_rel`; both WGSL barriers are read as CUDA's `__syncthreads()`, which orders all of
//! a block's memory; a compare-exchange is CUDA's `atomicCAS`, which never fails spuriously.
//! Coherence orders are partial, as the model has them: they order every two writes of a
//! location that are morally strong, and may leave others unordered.

use super::sc::Move;
use super::{permutations, product, LitmusTest, Op, Order, Outcome, Rmw, Scope, LOCATIONS};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The axiom a candidate breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Axiom {
    ScPerLocation,
    Coherence,
    FenceSc,
    Atomicity,
    Causality,
}

impl Axiom {
    pub fn name(self) -> &'static str {
        match self {
            Axiom::ScPerLocation => "SC per location",
            Axiom::Coherence => "coherence",
            Axiom::FenceSc => "fence-SC order",
            Axiom::Atomicity => "atomicity",
            Axiom::Causality => "causality",
        }
    }
}

/// A candidate execution, as the page shows it: which write each read read from (`None`: the
/// initial 0) and each location's coherence order, by statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    pub reads_from: Vec<(Move, Option<Move>)>,
    pub coherence: Vec<(usize, Vec<Move>)>,
    /// Synchronisations: from the release side to the acquire side, and between ordered
    /// seq_cst fences.
    pub synchronises: Vec<(Move, Move)>,
    /// `(statement, value read, value written)` for every access.
    pub values: Vec<(Move, Option<u32>, Option<u32>)>,
}

/// Why an outcome is forbidden: the axiom one candidate producing it breaks (every candidate
/// producing it breaks one), and the statements involved, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// `None`: no candidate produces these values at all.
    pub axiom: Option<Axiom>,
    pub why: String,
    pub execution: Option<Execution>,
}

/// The scoped model's verdict on each outcome some candidate produces; an outcome in neither map
/// has no candidate (no write stores its values where they are read).
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    pub allowed: BTreeMap<Outcome, Execution>,
    pub forbidden: BTreeMap<Outcome, Refusal>,
}

/// Most parts of candidates [`verdicts`] weighs, location by location, before it declines a
/// test: with [`MAX_CHECKS`], about a quarter of a second of work in a browser tab at most
/// (a part costs about 2 µs natively and 5 µs in the page; at 100,000, random tests of four
/// threads took 0.2 s natively and were then declined by the combination's limit).
pub const MAX_CANDIDATES: u128 = 30_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Read,
    Write,
    Fence {
        sc: bool,
    },
    /// The `n`-th barrier its thread reaches.
    Barrier(usize),
}

/// One event of a statement: a seq_cst access is two (its fence, then the access), a
/// read-modify-write two (its read, then its write).
#[derive(Clone, Copy, Debug)]
struct Event {
    at: Move,
    thread: usize,
    kind: Kind,
    loc: Option<usize>,
    /// Atomic (for an access) — fences are strong too; barriers are neither.
    strong: bool,
    acquire: bool,
    release: bool,
    scope: Scope,
    /// For a read-modify-write's read, its write; for its write, its read.
    partner: Option<usize>,
}

/// The events of `test`'s statements, in program order within each thread.
fn events(test: &LitmusTest) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for (t, ops) in test.threads.iter().enumerate() {
        let mut barriers = 0;
        for (i, op) in ops.iter().enumerate() {
            let at = (t, i);
            let base = Event { at, thread: t, kind: Kind::Read, loc: None, strong: true, acquire: false, release: false, scope: Scope::System, partner: None };
            match *op {
                Op::Barrier(_) => {
                    barriers += 1;
                    out.push(Event { kind: Kind::Barrier(barriers), strong: false, scope: Scope::Workgroup, ..base });
                }
                Op::Fence { order, scope } => {
                    out.push(Event { kind: Kind::Fence { sc: order == Order::SeqCst }, acquire: true, release: true, scope, ..base });
                }
                Op::Store { loc, mode, .. } | Op::Load { loc, mode, .. } | Op::Rmw { loc, mode, .. } => {
                    let scope = test.scope_of(mode);
                    let access = Event { loc: Some(loc), strong: mode.order != Order::Plain, scope, ..base };
                    if mode.order == Order::SeqCst {
                        // The fence.sc of the access's own scope.
                        out.push(Event { kind: Kind::Fence { sc: true }, acquire: true, release: true, scope, ..base });
                    }
                    // fence.sc, then ld.acquire / st.relaxed / atom.acq_rel.
                    let acquire = mode.order.acquires();
                    let release = mode.order.releases() && (mode.order != Order::SeqCst || matches!(op, Op::Rmw { .. }));
                    match op {
                        Op::Store { .. } => out.push(Event { kind: Kind::Write, release, ..access }),
                        Op::Load { .. } => out.push(Event { kind: Kind::Read, acquire, ..access }),
                        _ => {
                            let r = out.len();
                            out.push(Event { kind: Kind::Read, acquire, partner: Some(r + 1), ..access });
                            out.push(Event { kind: Kind::Write, release, partner: Some(r), ..access });
                        }
                    }
                }
            }
        }
    }
    out
}

/// A relation over at most 64 events: row `a` holds the events `a` relates to, as bits.
type Rel = Vec<u64>;

fn compose(a: &Rel, b: &Rel) -> Rel {
    a.iter()
        .map(|&row| {
            let mut out = 0;
            let mut bits = row;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                out |= b[k];
                bits &= bits - 1;
            }
            out
        })
        .collect()
}

fn union(a: &Rel, b: &Rel) -> Rel {
    a.iter().zip(b).map(|(x, y)| x | y).collect()
}

fn closure(mut r: Rel) -> Rel {
    for k in 0..r.len() {
        for a in 0..r.len() {
            if r[a] >> k & 1 == 1 {
                r[a] |= r[k];
            }
        }
    }
    r
}

fn has(r: &Rel, a: usize, b: usize) -> bool {
    r[a] >> b & 1 == 1
}

/// How many parts of candidates [`verdicts`] weighs for `test`, location by location (each
/// location's coherence orders times its reads' sources, for each success or failure of the
/// compare-exchanges). Saturates.
pub fn candidates(test: &LitmusTest) -> u128 {
    let events = events(test);
    let ms = Statics::of(test, &events).morally_strong;
    let mut total: u128 = 0;
    for l in 0..LOCATIONS.len() {
        let writes: Vec<usize> = (0..events.len()).filter(|&e| events[e].loc == Some(l) && events[e].kind == Kind::Write).collect();
        let reads = events.iter().filter(|e| e.loc == Some(l) && e.kind == Kind::Read).count() as u32;
        let orders: u128 = (1..=writes.len() as u128).fold(1u128, |a, k| a.saturating_mul(k));
        // Pairs the order may leave unordered: each doubles the orders weighed.
        let loose = writes.iter().enumerate().flat_map(|(i, &a)| writes[i + 1..].iter().map(move |&b| (a, b))).filter(|&(a, b)| !has(&ms, a, b)).count() as u32;
        let orders = orders.saturating_mul(1u128.checked_shl(loose).unwrap_or(u128::MAX));
        total = total.saturating_add(orders.saturating_mul((writes.len() as u128 + 1).saturating_pow(reads)));
    }
    let cas = test.threads.iter().flatten().filter(|op| matches!(op, Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).count() as u32;
    total.saturating_mul(1u128.checked_shl(cas).unwrap_or(u128::MAX))
}

/// One location's coherence order. The model orders every two of its writes that are morally
/// strong; two that are not (plain writes, or writes out of each other's scope) may stay
/// unordered, and threads may then see them in different orders.
#[derive(Clone, Debug)]
struct Coherence {
    /// Its writes in an order that extends it: what the page draws.
    order: Vec<usize>,
    /// Every `(earlier, later)` pair it orders.
    before: Vec<(usize, usize)>,
    /// The write whose value the location ends with: one that nothing comes after.
    last: Option<usize>,
}

/// Every coherence order of the writes `writes`: partial orders that order each morally strong
/// pair, each with every write it may end with where the final value matters.
fn coherence_orders(writes: &[usize], ms: &Rel, final_matters: bool) -> Vec<Coherence> {
    let mut seen: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut out = Vec::new();
    for order in permutations(writes) {
        let pairs: Vec<(usize, usize)> = order.iter().enumerate().flat_map(|(i, &a)| order[i + 1..].iter().map(move |&b| (a, b))).collect();
        let optional: Vec<usize> = (0..pairs.len()).filter(|&k| !has(ms, pairs[k].0, pairs[k].1)).collect();
        for drop in 0..1u32 << optional.len() {
            let before: Vec<(usize, usize)> = pairs
                .iter()
                .enumerate()
                .filter(|(k, _)| optional.iter().position(|o| o == k).is_none_or(|bit| drop >> bit & 1 == 0))
                .map(|(_, &p)| p)
                .collect();
            let transitive = before.iter().all(|&(a, b)| before.iter().filter(|&&(c, _)| c == b).all(|&(_, d)| before.contains(&(a, d))));
            if !transitive || seen.contains(&before) {
                continue;
            }
            seen.push(before.clone());
            let maximal: Vec<usize> = order.iter().copied().filter(|&w| !before.iter().any(|&(a, _)| a == w)).collect();
            let ends: Vec<Option<usize>> = if maximal.is_empty() {
                vec![None]
            } else if final_matters {
                maximal.into_iter().map(Some).collect()
            } else {
                vec![maximal.first().copied()]
            };
            for last in ends {
                out.push(Coherence { order: order.clone(), before: before.clone(), last });
            }
        }
    }
    out
}

/// One candidate's choices: each read's source write (`None`: the initial 0), each location's
/// coherence order, the seq_cst fences in their order.
struct Candidate<'a> {
    events: &'a [Event],
    rf: Vec<Option<usize>>,
    co: Vec<Coherence>,
    fences: Vec<usize>,
    /// What each statement read and wrote, for the page to draw.
    values: Vec<(Move, Option<u32>, Option<u32>)>,
}

/// One location's part of a candidate: its coherence order, where each of its reads reads
/// from, and what that gives its registers and its final value.
#[derive(Clone)]
struct Part {
    co: Rc<Coherence>,
    /// `(read, source)` for each of the location's reads.
    rf: Vec<(usize, Option<usize>)>,
    key: Key,
    /// What each of the location's statements read and wrote.
    values: Vec<(Move, Option<u32>, Option<u32>)>,
}

/// A location's part of an outcome: its reads' registers and values, its final value.
type Key = (Vec<(usize, u32)>, Option<u32>);

/// Every outcome's verdict under the scoped model, or why the test is too large to weigh.
///
/// Values and SC-per-location concern one location at a time: each location's choices are
/// weighed alone first, and only those that keep that axiom are combined across locations for
/// the axioms that span them.
pub fn verdicts(test: &LitmusTest) -> Result<Verdicts, String> {
    let count = candidates(test);
    if count > MAX_CANDIDATES {
        return Err(format!(
            "the scoped model would weigh {count} candidate executions location by location, more than the {MAX_CANDIDATES} it takes: fewer writes to one location"
        ));
    }
    let events = events(test);
    let n = events.len();
    debug_assert!(n <= 64);
    let reads: Vec<usize> = (0..n).filter(|&e| events[e].kind == Kind::Read).collect();
    let sc_fences: Vec<usize> = (0..n).filter(|&e| events[e].kind == Kind::Fence { sc: true }).collect();
    // Orders of the seq_cst fences that keep each thread's own in program order: the ways of
    // interleaving the threads' fences, (k₀ + k₁ + …)! / (k₀! k₁! …) of them. Counted before
    // they are listed: twelve fences could be hundreds of millions.
    let per_thread: Vec<Vec<usize>> = (0..test.threads.len()).map(|t| sc_fences.iter().copied().filter(|&f| events[f].thread == t).collect()).collect();
    let (_, orders) = per_thread.iter().fold((0u128, 1u128), |(placed, ways), fences| {
        let k = fences.len() as u128;
        (placed + k, (1..=k).fold(ways, |w, i| w.saturating_mul(placed + i) / i))
    });
    if orders > MAX_CHECKS as u128 {
        return Err(format!(
            "the scoped model would weigh {orders} orders of its seq_cst fences (each seq_cst access counts as one), more than the {MAX_CHECKS} candidate executions it checks: fewer seq_cst accesses and fences"
        ));
    }
    let fence_orders = interleavings(&per_thread);
    // Each compare-exchange's write, present (it succeeds) or not (it fails: a read only).
    let cas_writes: Vec<usize> =
        (0..n).filter(|&e| events[e].kind == Kind::Write && matches!(op_of(test, &events[e]), Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).collect();
    let statics = Statics::of(test, &events);
    let overwritten = test.overwritten();
    let mut out = Verdicts::default();
    // Per location, the parts some candidate refuses by SC-per-location, with why.
    let mut refused: Vec<BTreeMap<Key, Refusal>> = vec![BTreeMap::new(); LOCATIONS.len()];
    let mut kept_keys: Vec<BTreeSet<Key>> = vec![BTreeSet::new(); LOCATIONS.len()];
    // The work done, counted: what is too much to weigh is declined in words, never left to
    // freeze a tab.
    let (mut visited, mut checks) = (0usize, 0usize);
    for mask in 0..1u32 << cas_writes.len() {
        let failed = |w: usize| cas_writes.iter().position(|&c| c == w).is_some_and(|bit| mask >> bit & 1 == 1);
        let mut kept: Vec<Vec<Part>> = Vec::new();
        for l in 0..LOCATIONS.len() {
            let writes: Vec<usize> = (0..n).filter(|&e| events[e].kind == Kind::Write && events[e].loc == Some(l) && !failed(e)).collect();
            let here: Vec<usize> = reads.iter().copied().filter(|&r| events[r].loc == Some(l)).collect();
            let sources: Vec<Vec<Option<usize>>> = here
                .iter()
                .map(|&r| std::iter::once(None).chain(writes.iter().copied().filter(|&w| events[w].partner != Some(r)).map(Some)).collect())
                .collect();
            let mut parts = Vec::new();
            for co in coherence_orders(&writes, &statics.morally_strong, overwritten.contains(&l)).into_iter().map(Rc::new) {
                for chosen in product(&sources) {
                    let rf: Vec<(usize, Option<usize>)> = here.iter().copied().zip(chosen).collect();
                    let Some((key, values)) = location_key(test, &events, &rf, &co) else { continue };
                    let part = Part { co: Rc::clone(&co), rf, key, values };
                    match sc_per_location_cycle(&statics, &events, &part) {
                        None => {
                            kept_keys[l].insert(part.key.clone());
                            parts.push(part);
                        }
                        // Why, in words, once for each key: thousands of parts may break it.
                        Some(cycle) if !refused[l].contains_key(&part.key) => {
                            let refusal = sc_per_location_refusal(test, &events, &part, cycle);
                            refused[l].insert(part.key, refusal);
                        }
                        Some(_) => {}
                    }
                }
            }
            kept.push(parts);
        }
        // Outcomes first, by the keys of the locations' parts; then, for an outcome not yet
        // allowed, the parts that make it, until one candidate keeps every axiom.
        let grouped: Vec<Vec<(&Key, Vec<&Part>)>> = kept
            .iter()
            .map(|parts| {
                let mut by_key: BTreeMap<&Key, Vec<&Part>> = BTreeMap::new();
                for part in parts {
                    by_key.entry(&part.key).or_default().push(part);
                }
                by_key.into_iter().collect()
            })
            .collect();
        for keys in Odometer::new(grouped.iter().map(Vec::len).collect()) {
            visited += 1;
            if visited > MAX_OUTCOMES_VISITED {
                return Err(format!(
                    "the scoped model would put together more than {MAX_OUTCOMES_VISITED} outcomes: fewer reads, or fewer values per location"
                ));
            }
            let chosen: Vec<&(&Key, Vec<&Part>)> = keys.iter().zip(&grouped).map(|(&k, g)| &g[k]).collect();
            let outcome = outcome_of(test, &overwritten, &chosen.iter().map(|(key, _)| *key).collect::<Vec<_>>());
            if out.allowed.contains_key(&outcome) {
                continue;
            }
            'parts: for choice in Odometer::new(chosen.iter().map(|(_, parts)| parts.len()).collect()) {
                let parts: Vec<&Part> = choice.iter().zip(&chosen).map(|(&i, (_, parts))| parts[i]).collect();
                let mut rf = vec![None; reads.len()];
                for (r, w) in parts.iter().flat_map(|p| &p.rf) {
                    if let Some(i) = reads.iter().position(|x| x == r) {
                        rf[i] = *w;
                    }
                }
                let co: Vec<Coherence> = parts.iter().map(|p| Coherence::clone(&p.co)).collect();
                let values: Vec<(Move, Option<u32>, Option<u32>)> = parts.iter().flat_map(|p| p.values.iter().copied()).collect();
                for fences in &fence_orders {
                    checks += 1;
                    if checks > MAX_CHECKS {
                        return Err(format!(
                            "the scoped model would check more than {MAX_CHECKS} whole candidate executions against its axioms: fewer accesses, or fewer seq_cst accesses and fences"
                        ));
                    }
                    let candidate = Candidate { events: &events, rf: rf.clone(), co: co.clone(), fences: fences.clone(), values: values.clone() };
                    match check(test, &statics, &candidate, &reads) {
                        Ok(execution) => {
                            out.forbidden.remove(&outcome);
                            out.allowed.insert(outcome.clone(), execution);
                            break 'parts;
                        }
                        Err(refusal) => {
                            out.forbidden.entry(outcome.clone()).or_insert(*refusal);
                        }
                    }
                }
            }
        }
    }
    // Outcomes whose only candidates break SC-per-location on some location: forbidden by it,
    // where every other location's part is produced at all.
    for outcome in test.outcomes() {
        if out.allowed.contains_key(&outcome) || out.forbidden.contains_key(&outcome) {
            continue;
        }
        let keys: Vec<Key> = (0..LOCATIONS.len()).map(|l| key_of(test, &events, l, &outcome)).collect();
        let produced = (0..LOCATIONS.len()).all(|l| kept_keys[l].contains(&keys[l]) || refused[l].contains_key(&keys[l]));
        let broken = (0..LOCATIONS.len()).find(|&l| !kept_keys[l].contains(&keys[l]));
        if let (true, Some(l)) = (produced, broken) {
            out.forbidden.insert(outcome, refused[l][&keys[l]].clone());
        }
    }
    Ok(out)
}

/// Most whole candidates (a surviving part of each location, and an order of the seq_cst fences)
/// [`verdicts`] checks against every axiom before it declines a test: a check costs about
/// 13 µs natively, a few times that in the page. Only outcomes not yet allowed are checked, so
/// most tests check far fewer than their parts' product.
pub const MAX_CHECKS: usize = 10_000;

/// Most outcomes [`verdicts`] puts together from the locations' parts (each a lookup, not a check).
pub const MAX_OUTCOMES_VISITED: usize = 100_000;

/// Location `l`'s part of `outcome`.
fn key_of(test: &LitmusTest, events: &[Event], l: usize, outcome: &Outcome) -> Key {
    let mut registers: Vec<(usize, u32)> = Vec::new();
    for e in events.iter().filter(|e| e.kind == Kind::Read && e.loc == Some(l)) {
        if let Op::Load { reg, .. } | Op::Rmw { reg, .. } = op_of(test, e) {
            registers.push((reg, outcome.registers[reg]));
        }
    }
    (registers, outcome.finals.iter().find(|(loc, _)| *loc == l).map(|&(_, v)| v))
}

/// The outcome the locations' parts make together, from each location's key.
fn outcome_of(test: &LitmusTest, overwritten: &[usize], keys: &[&Key]) -> Outcome {
    let mut registers = vec![0u32; test.registers.len()];
    for &(reg, v) in keys.iter().flat_map(|k| &k.0) {
        registers[reg] = v;
    }
    let finals = overwritten.iter().map(|&l| (l, keys[l].1.unwrap_or(0))).collect();
    Outcome { registers, finals }
}

/// Every way of interleaving `lists`, each kept in its own order.
fn interleavings(lists: &[Vec<usize>]) -> Vec<Vec<usize>> {
    fn extend(lists: &[Vec<usize>], taken: &mut [usize], order: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let mut any = false;
        for t in 0..lists.len() {
            if let Some(&next) = lists[t].get(taken[t]) {
                any = true;
                order.push(next);
                taken[t] += 1;
                extend(lists, taken, order, out);
                taken[t] -= 1;
                order.pop();
            }
        }
        if !any {
            out.push(order.clone());
        }
    }
    let mut out = Vec::new();
    extend(lists, &mut vec![0; lists.len()], &mut Vec::new(), &mut out);
    out
}

/// Every choice of one index below each of `lens`, the last varying fastest; none where some
/// list is empty. (Indices, where a product of the lists themselves would clone every item
/// into every combination.)
struct Odometer {
    lens: Vec<usize>,
    next: Option<Vec<usize>>,
}

impl Odometer {
    fn new(lens: Vec<usize>) -> Odometer {
        let next = lens.iter().all(|&n| n > 0).then(|| vec![0; lens.len()]);
        Odometer { lens, next }
    }
}

impl Iterator for Odometer {
    type Item = Vec<usize>;
    fn next(&mut self) -> Option<Vec<usize>> {
        let now = self.next.take()?;
        let mut after = now.clone();
        for i in (0..after.len()).rev() {
            after[i] += 1;
            if after[i] < self.lens[i] {
                self.next = Some(after);
                return Some(now);
            }
            after[i] = 0;
        }
        Some(now)
    }
}

/// A location's key for its reads' sources `rf` and coherence order `co`; `None` where the
/// values contradict themselves: a value that depends on itself, or a compare-exchange that
/// wrote although it did not find what it expected (or found it and did not write).
#[allow(clippy::type_complexity)]
fn location_key(test: &LitmusTest, events: &[Event], rf: &[(usize, Option<usize>)], co: &Coherence) -> Option<(Key, Vec<(Move, Option<u32>, Option<u32>)>)> {
    let n = events.len();
    let op = |e: usize| op_of(test, &events[e]);
    let mut read_value: Vec<Option<u32>> = vec![None; n];
    let mut write_value: Vec<Option<u32>> = vec![None; n];
    for _ in 0..=rf.len() {
        for &w in &co.order {
            write_value[w] = match op(w) {
                Op::Store { value, .. } => Some(value),
                Op::Rmw { rmw, .. } => events[w].partner.and_then(|r| read_value[r]).map(|old| match rmw {
                    Rmw::Add(v) => old.wrapping_add(v),
                    Rmw::Exchange(v) | Rmw::CompareExchange { value: v, .. } => v,
                }),
                _ => None,
            };
        }
        for &(r, source) in rf {
            read_value[r] = source.map_or(Some(0), |w| write_value[w]);
        }
    }
    let mut registers = Vec::new();
    for &(r, _) in rf {
        let value = read_value[r]?;
        if let Op::Load { reg, .. } | Op::Rmw { reg, .. } = op(r) {
            registers.push((reg, value));
        }
        // atomicCAS writes exactly when it finds what it expected: a part whose coherence
        // order holds its write wrote; one that failed left it out.
        if let Op::Rmw { rmw: Rmw::CompareExchange { expected, .. }, .. } = op(r) {
            let wrote = co.order.iter().any(|&w| events[w].partner == Some(r));
            if wrote != (value == expected) {
                return None;
            }
        }
    }
    let last = match co.last {
        Some(w) => Some(write_value[w]?),
        None => Some(0),
    };
    // Per statement: its read's value and its write's (a read-modify-write has both).
    let mut values: Vec<(Move, Option<u32>, Option<u32>)> = Vec::new();
    for e in rf.iter().map(|&(r, _)| r).chain(co.order.iter().copied()) {
        let at = events[e].at;
        let slot = match values.iter().position(|v| v.0 == at) {
            Some(i) => i,
            None => {
                values.push((at, None, None));
                values.len() - 1
            }
        };
        if events[e].kind == Kind::Read {
            values[slot].1 = read_value[e];
        } else {
            values[slot].2 = write_value[e];
        }
    }
    Some(((registers, last), values))
}

/// The location a part is of: that of its first read, or else of its first write.
fn location_of(events: &[Event], part: &Part) -> Option<usize> {
    part.rf.first().map(|&(r, _)| r).or(part.co.order.first().copied()).and_then(|e| events[e].loc)
}

/// SC-per-location on one location's part: two events of a cycle, if it breaks it.
fn sc_per_location_cycle(s: &Statics, events: &[Event], part: &Part) -> Option<(usize, usize)> {
    let n = events.len();
    let mut rf: Rel = vec![0; n];
    let mut co: Rel = vec![0; n];
    let mut fr: Rel = vec![0; n];
    for &(a, b) in &part.co.before {
        co[a] |= 1 << b;
    }
    let all: u64 = part.co.order.iter().fold(0, |m, &w| m | 1 << w);
    for &(r, w) in &part.rf {
        if let Some(w) = w {
            rf[w] |= 1 << r;
        }
        let later = w.map_or(all, |w| co[w]);
        fr[r] = later & !events[r].partner.map_or(0, |p| 1 << p);
    }
    let ms = &s.morally_strong;
    let and = |a: &Rel, b: &Rel| -> Rel { a.iter().zip(b).map(|(x, y)| x & y).collect() };
    let loc = location_of(events, part);
    let po_loc: Rel = (0..n).map(|a| if events[a].loc == loc { s.po_loc[a] } else { 0 }).collect();
    let relation = union(&union(&and(ms, &rf), &and(ms, &co)), &union(&and(ms, &fr), &po_loc));
    cycle(&relation)
}

/// The refusal of a part that breaks SC-per-location with the cycle through `a` and `b`.
fn sc_per_location_refusal(test: &LitmusTest, events: &[Event], part: &Part, (a, b): (usize, usize)) -> Refusal {
    let loc = location_of(events, part);
    let reads: Vec<usize> = part.rf.iter().map(|&(r, _)| r).collect();
    let sources: Vec<Option<usize>> = part.rf.iter().map(|&(_, w)| w).collect();
    let mut co_all = vec![Coherence { order: Vec::new(), before: Vec::new(), last: None }; LOCATIONS.len()];
    if let Some(l) = loc {
        co_all[l] = Coherence::clone(&part.co);
    }
    let candidate = Candidate { events, rf: sources, co: co_all, fences: Vec::new(), values: part.values.clone() };
    refusal(test, &candidate, Axiom::ScPerLocation, a, b, &reads)
}

/// What every candidate of a test shares: program order, moral strength, the barriers.
struct Statics {
    po: Rel,
    po_loc: Rel,
    morally_strong: Rel,
    barrier_sync: Rel,
}

impl Statics {
    fn of(test: &LitmusTest, events: &[Event]) -> Statics {
        let n = events.len();
        let mut s = Statics { po: vec![0; n], po_loc: vec![0; n], morally_strong: vec![0; n], barrier_sync: vec![0; n] };
        // Whether `e`'s scope includes thread `t`.
        let reaches = |e: &Event, t: usize| match e.scope {
            Scope::Workgroup => test.together(e.thread, t),
            Scope::Device | Scope::System => true,
        };
        for a in 0..n {
            for b in 0..n {
                let (ea, eb) = (&events[a], &events[b]);
                let same_thread = ea.thread == eb.thread;
                if same_thread && a < b {
                    s.po[a] |= 1 << b;
                    if ea.loc.is_some() && ea.loc == eb.loc {
                        s.po_loc[a] |= 1 << b;
                    }
                }
                let memory = |e: &Event| matches!(e.kind, Kind::Read | Kind::Write);
                let strong_pair = ea.strong && eb.strong && !matches!(ea.kind, Kind::Barrier(_)) && !matches!(eb.kind, Kind::Barrier(_));
                let ms1 = same_thread || (strong_pair && reaches(ea, eb.thread) && reaches(eb, ea.thread));
                let ms2 = !(memory(ea) && memory(eb)) || ea.loc == eb.loc;
                if a != b && ms1 && ms2 {
                    s.morally_strong[a] |= 1 << b;
                }
                if let (Kind::Barrier(i), Kind::Barrier(j)) = (ea.kind, eb.kind) {
                    if i == j && !same_thread && test.together(ea.thread, eb.thread) {
                        s.barrier_sync[a] |= 1 << b;
                    }
                }
            }
        }
        s
    }
}

fn op_of(test: &LitmusTest, e: &Event) -> Op {
    test.threads[e.at.0][e.at.1]
}

/// Checks one candidate against every axiom: its execution, or the first axiom it breaks.
fn check(test: &LitmusTest, s: &Statics, c: &Candidate, reads: &[usize]) -> Result<Execution, Box<Refusal>> {
    let events = c.events;
    let n = events.len();
    let mut rf: Rel = vec![0; n];
    let mut rmw: Rel = vec![0; n];
    for (&r, &w) in reads.iter().zip(&c.rf) {
        if let Some(w) = w {
            rf[w] |= 1 << r;
        }
        if let Some(w) = events[r].partner {
            rmw[r] |= 1 << w;
        }
    }
    let mut co: Rel = vec![0; n];
    for &(a, b) in c.co.iter().flat_map(|c| &c.before) {
        co[a] |= 1 << b;
    }
    // A compare-exchange that failed has no write: its write event stands in no coherence order.
    let present: u64 = c.co.iter().flat_map(|c| &c.order).fold(0, |m, &w| m | 1 << w);
    for r in rmw.iter_mut() {
        *r &= present;
    }
    // fr: a read to every write after the one it read (after the initial 0: every write there).
    let mut fr: Rel = vec![0; n];
    for (&r, &w) in reads.iter().zip(&c.rf) {
        let later = match w {
            Some(w) => co[w],
            None => c.co[events[r].loc.unwrap_or(0)].order.iter().fold(0, |m, &x| m | 1 << x),
        };
        fr[r] = later & !events[r].partner.map_or(0, |p| 1 << p);
    }
    let ms = &s.morally_strong;
    let and = |a: &Rel, b: &Rel| -> Rel { a.iter().zip(b).map(|(x, y)| x & y).collect() };

    // SC per location.
    let per_location = union(&union(&and(ms, &rf), &and(ms, &co)), &union(&and(ms, &fr), &s.po_loc));
    if let Some((a, b)) = cycle(&per_location) {
        return Err(Box::new(refusal(test, c, Axiom::ScPerLocation, a, b, reads)));
    }

    // Observation: morally strong reads-from, through chains of read-modify-writes.
    let mut observation = and(ms, &rf);
    loop {
        let longer = union(&observation, &compose(&compose(&observation, &rmw), &observation));
        if longer == observation {
            break;
        }
        observation = longer;
    }
    let mut release: Rel = vec![0; n];
    let mut acquire: Rel = vec![0; n];
    for a in 0..n {
        for b in 0..n {
            let (ea, eb) = (&events[a], &events[b]);
            let strong_write = eb.kind == Kind::Write && eb.strong;
            let plain_or_loc = a == b || has(&s.po_loc, a, b);
            let fence_a = matches!(ea.kind, Kind::Fence { .. });
            if strong_write && ((ea.kind == Kind::Write && ea.release && plain_or_loc) || (fence_a && has(&s.po, a, b))) {
                release[a] |= 1 << b;
            }
            let strong_read = ea.kind == Kind::Read && ea.strong;
            let fence_b = matches!(eb.kind, Kind::Fence { .. });
            if strong_read && ((eb.kind == Kind::Read && eb.acquire && plain_or_loc) || (fence_b && has(&s.po, a, b))) {
                acquire[a] |= 1 << b;
            }
        }
    }
    let sync = and(ms, &compose(&compose(&release, &observation), &acquire));
    let mut fence_sync: Rel = vec![0; n];
    for (i, &a) in c.fences.iter().enumerate() {
        for &b in &c.fences[i + 1..] {
            if has(ms, a, b) {
                fence_sync[a] |= 1 << b;
            }
        }
    }
    let mut po_refl = s.po.clone();
    for (a, row) in po_refl.iter_mut().enumerate() {
        *row |= 1 << a;
    }
    let synchronised = union(&union(&sync, &fence_sync), &s.barrier_sync);
    // What the page draws of it: statement to statement, barriers left to their own rule.
    let mut synchronises = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if has(&synchronised, a, b) && !matches!(events[a].kind, Kind::Barrier(_)) && !synchronises.contains(&(events[a].at, events[b].at)) {
                synchronises.push((events[a].at, events[b].at));
            }
        }
    }
    let refusal = |axiom: Axiom, a: usize, b: usize| {
        let mut r = refusal(test, c, axiom, a, b, reads);
        if let Some(e) = r.execution.as_mut() {
            e.synchronises = synchronises.clone();
        }
        Box::new(r)
    };
    let cause_base = compose(&po_refl, &closure(compose(&synchronised, &po_refl)));
    let cause = union(&cause_base, &compose(&observation, &union(&cause_base, &s.po_loc)));

    // Coherence: writes to one location ordered by causality are so ordered in coherence.
    for a in 0..n {
        for b in 0..n {
            let writes = events[a].kind == Kind::Write && events[b].kind == Kind::Write && present >> a & 1 == 1 && present >> b & 1 == 1;
            if writes && events[a].loc == events[b].loc && has(&cause, a, b) && !has(&co, a, b) {
                return Err(refusal(Axiom::Coherence, a, b));
            }
        }
    }
    // Fence-SC: causality between morally strong seq_cst fences agrees with their order. (The
    // PTX ISA states it of morally strong pairs; Dat3M's cat file writes it of every pair, so
    // that causality between two fences out of each other's scope would rule a test out.)
    for &a in &c.fences {
        for &b in &c.fences {
            if has(ms, a, b) && has(&cause, a, b) && !has(&fence_sync, a, b) {
                return Err(refusal(Axiom::FenceSc, a, b));
            }
        }
    }
    // Atomicity: no morally strong write between a read-modify-write's read and its write.
    for r in 0..n {
        if rmw[r] == 0 {
            continue;
        }
        let w = rmw[r].trailing_zeros() as usize;
        let between = fr[r] & ms[r];
        if let Some(x) = (0..n).find(|&x| between >> x & 1 == 1 && has(&co, x, w) && has(ms, x, w)) {
            return Err(refusal(Axiom::Atomicity, r, x));
        }
    }
    // Causality: irreflexive((rf ∪ fr); cause).
    let seen = union(&rf, &fr);
    for a in 0..n {
        for b in 0..n {
            if has(&seen, a, b) && has(&cause, b, a) {
                return Err(refusal(Axiom::Causality, a, b));
            }
        }
    }
    Ok(Execution { synchronises, ..execution(c, reads) })
}

fn execution(c: &Candidate, reads: &[usize]) -> Execution {
    let at = |e: usize| c.events[e].at;
    Execution {
        reads_from: reads.iter().zip(&c.rf).map(|(&r, w)| (at(r), w.map(at))).collect(),
        coherence: c.co.iter().enumerate().filter(|(_, o)| !o.order.is_empty()).map(|(l, o)| (l, o.order.iter().map(|&w| at(w)).collect())).collect(),
        synchronises: Vec::new(),
        values: c.values.clone(),
    }
}

/// The refusal for breaking `axiom`, naming the two events it found.
fn refusal(test: &LitmusTest, c: &Candidate, axiom: Axiom, a: usize, b: usize, reads: &[usize]) -> Refusal {
    let name = |e: usize| {
        let ev = &c.events[e];
        let what = match ev.kind {
            Kind::Fence { .. } if !matches!(test.threads[ev.at.0][ev.at.1], Op::Fence { .. }) => " (its fence)",
            _ => "",
        };
        format!("T{}'s statement {}{what}", ev.at.0, ev.at.1 + 1)
    };
    let why = match axiom {
        Axiom::ScPerLocation => {
            format!("SC per location: {} and {} are morally strong accesses to one location, yet their reads and writes go round in a circle", name(a), name(b))
        }
        Axiom::Coherence => format!("coherence: {} causes {}, yet comes after it in the location's coherence order", name(a), name(b)),
        Axiom::FenceSc => format!("fence-SC order: {} causes {}, yet the seq_cst fences are ordered the other way", name(a), name(b)),
        Axiom::Atomicity => format!("atomicity: {} comes between the read and the write of the read-modify-write at {}", name(b), name(a)),
        Axiom::Causality => {
            if c.events[a].kind == Kind::Write {
                format!("causality: {} reads the write at {}, which it causes itself", name(b), name(a))
            } else {
                format!("causality: {} reads a value that {} had already overwritten, though that write causes the read", name(a), name(b))
            }
        }
    };
    Refusal { axiom: Some(axiom), why, execution: Some(execution(c, reads)) }
}

/// An edge on a cycle of `r`, if it has one.
fn cycle(r: &Rel) -> Option<(usize, usize)> {
    let reach = closure(r.clone());
    (0..r.len()).find(|&a| has(&reach, a, a)).and_then(|a| (0..r.len()).find(|&b| has(r, a, b) && has(&reach, b, a)).map(|b| (a, b)))
}
