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
use super::{LitmusTest, Op, Outcome, Placement, Rmw, LOCATIONS};
use std::collections::BTreeMap;

/// An execution the model allows: what each read read from (`None`: the initial 0), and each
/// location's coherence order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    pub reads_from: Vec<(Move, Option<Move>)>,
    pub coherence: Vec<(usize, Vec<Move>)>,
}

/// What the model says of the outcomes some candidate execution produces: an execution for
/// each allowed one, and for each other the rule every candidate producing it breaks (the
/// first found). An outcome in neither map is produced by no candidate at all.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    pub allowed: BTreeMap<Outcome, Execution>,
    pub forbidden: BTreeMap<Outcome, String>,
}

struct Event {
    at: Move,
    op: Op,
}

/// How many candidate executions [`verdicts`] would weigh: each compare-exchange's success or
/// failure, each read's source, each location's order of writes. Saturates.
pub fn candidates(test: &LitmusTest) -> u128 {
    let ops: Vec<Op> = test.threads.iter().flatten().copied().filter(|op| op.loc().is_some()).collect();
    let cas = ops.iter().filter(|op| matches!(op, Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).count() as u32;
    let mut total: u128 = 1u128.checked_shl(cas).unwrap_or(u128::MAX);
    for l in 0..LOCATIONS.len() {
        let writes = ops.iter().filter(|op| op.loc() == Some(l) && matches!(op, Op::Store { .. } | Op::Rmw { .. })).count() as u128;
        let reads = ops.iter().filter(|op| op.loc() == Some(l) && matches!(op, Op::Load { .. } | Op::Rmw { .. })).count() as u32;
        let orders: u128 = (1..=writes).fold(1u128, |a, k| a.saturating_mul(k));
        total = total.saturating_mul(orders).saturating_mul((writes + 1).saturating_pow(reads));
    }
    total
}

pub fn verdicts(test: &LitmusTest) -> Verdicts {
    let events: Vec<Event> = test
        .threads
        .iter()
        .enumerate()
        .flat_map(|(t, ops)| ops.iter().enumerate().filter(|(_, op)| op.loc().is_some()).map(move |(i, op)| Event { at: (t, i), op: *op }))
        .collect();
    let hb = happens_before(test, &events);
    let cas: Vec<usize> = (0..events.len()).filter(|&e| matches!(events[e].op, Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. })).collect();
    let reads: Vec<usize> = (0..events.len()).filter(|&e| matches!(events[e].op, Op::Load { .. } | Op::Rmw { .. })).collect();
    let mut out = Verdicts::default();
    for successes in 0..1u32 << cas.len() {
        let writes_at = |e: usize| match events[e].op {
            Op::Store { .. } => true,
            Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. } => successes >> cas.iter().position(|&c| c == e).unwrap_or(0) & 1 == 1,
            Op::Rmw { .. } => true,
            _ => false,
        };
        let writes: Vec<Vec<usize>> =
            (0..LOCATIONS.len()).map(|l| (0..events.len()).filter(|&e| events[e].op.loc() == Some(l) && writes_at(e)).collect()).collect();
        // Each read's choices: the initial value, or any other write to its location.
        let choices: Vec<Vec<Option<usize>>> = reads
            .iter()
            .map(|&r| std::iter::once(None).chain(writes[events[r].op.loc().unwrap_or(0)].iter().copied().filter(|&w| w != r).map(Some)).collect())
            .collect();
        for rf in product(&choices) {
            let source = |e: usize| reads.iter().position(|&r| r == e).and_then(|i| rf[i]);
            let Some(values) = values(&events, &reads, &rf, &writes_at) else { continue };
            for co in orders(&writes) {
                let outcome = outcome(test, &events, &values, &co);
                let broken = atomicity(&events, &co, &source).or_else(|| coherence(&events, &hb, &co, &reads, &rf));
                match broken {
                    None => {
                        out.forbidden.remove(&outcome);
                        out.allowed.entry(outcome).or_insert_with(|| Execution {
                            reads_from: reads.iter().zip(&rf).map(|(&r, w)| (events[r].at, w.map(|w| events[w].at))).collect(),
                            coherence: co
                                .iter()
                                .enumerate()
                                .filter(|(_, o)| !o.is_empty())
                                .map(|(l, o)| (l, o.iter().map(|&e| events[e].at).collect()))
                                .collect(),
                        });
                    }
                    Some(why) => {
                        if !out.allowed.contains_key(&outcome) {
                            out.forbidden.entry(outcome).or_insert(why);
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
fn happens_before(test: &LitmusTest, events: &[Event]) -> Vec<Vec<bool>> {
    let n = events.len();
    let orders = |kind| test.placement == Placement::Same && kind == test.memory;
    // How many ordering barriers thread t has passed before its statement i.
    let passed = |(t, i): Move| test.threads[t][..i].iter().filter(|op| matches!(op, Op::Barrier(k) if orders(*k))).count();
    let mut hb = vec![vec![false; n]; n];
    for a in 0..n {
        for b in 0..n {
            let (ta, ia) = events[a].at;
            let (tb, ib) = events[b].at;
            hb[a][b] = (ta == tb && ia < ib) || (ta != tb && passed(events[a].at) < passed(events[b].at));
        }
    }
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                hb[a][b] |= hb[a][k] && hb[k][b];
            }
        }
    }
    hb
}

/// Every way of picking one from each list.
fn product(choices: &[Vec<Option<usize>>]) -> Vec<Vec<Option<usize>>> {
    choices
        .iter()
        .fold(vec![Vec::new()], |acc, options| acc.iter().flat_map(|prefix| options.iter().map(move |o| [prefix.clone(), vec![*o]].concat())).collect())
}

/// Every coherence order: each location's writes in every order.
fn orders(writes: &[Vec<usize>]) -> Vec<Vec<Vec<usize>>> {
    writes
        .iter()
        .fold(vec![Vec::new()], |acc, ws| acc.iter().flat_map(|prefix| permutations(ws).into_iter().map(move |p| [prefix.clone(), vec![p]].concat())).collect())
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    (0..items.len())
        .flat_map(|i| {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            permutations(&rest).into_iter().map(move |p| [vec![first], p].concat())
        })
        .collect()
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

fn outcome(test: &LitmusTest, events: &[Event], values: &[(Option<u32>, Option<u32>)], co: &[Vec<usize>]) -> Outcome {
    let mut registers = vec![0; test.registers.len()];
    for (e, event) in events.iter().enumerate() {
        if let Op::Load { reg, .. } | Op::Rmw { reg, .. } = event.op {
            registers[reg] = values[e].0.unwrap_or(0);
        }
    }
    let finals = test.overwritten().into_iter().map(|l| (l, co[l].last().and_then(|&w| values[w].1).unwrap_or(0))).collect();
    Outcome { registers, finals }
}

fn describe(events: &[Event], e: usize) -> String {
    let (t, i) = events[e].at;
    format!("T{t}'s statement {}", i + 1)
}

/// A read-modify-write must follow the write it read immediately in coherence order.
fn atomicity(events: &[Event], co: &[Vec<usize>], source: &dyn Fn(usize) -> Option<usize>) -> Option<String> {
    for (l, order) in co.iter().enumerate() {
        for (pos, &e) in order.iter().enumerate() {
            if !matches!(events[e].op, Op::Rmw { .. }) {
                continue;
            }
            let expected = match source(e) {
                None => 0,
                Some(w) => order.iter().position(|&x| x == w)? + 1,
            };
            if pos != expected {
                let between = order[expected.min(pos)..pos].first().copied().unwrap_or(e);
                return Some(format!(
                    "atomicity: the read-modify-write {} reads {} of {}, but {} writes {} in between",
                    describe(events, e),
                    source(e).map_or("the initial 0".to_owned(), |w| format!("what {} wrote", describe(events, w))),
                    LOCATIONS[l],
                    describe(events, between),
                    LOCATIONS[l]
                ));
            }
        }
    }
    None
}

/// No cycle of happens-before with one location's reads-from, coherence and from-read.
fn coherence(events: &[Event], hb: &[Vec<bool>], co: &[Vec<usize>], reads: &[usize], rf: &[Option<usize>]) -> Option<String> {
    let n = events.len();
    // eco: reads-from, coherence and from-read, then closed transitively (one location each).
    let mut eco = vec![vec![false; n]; n];
    let rank = |e: usize| co.iter().find_map(|o| o.iter().position(|&x| x == e));
    for order in co {
        for (i, &a) in order.iter().enumerate() {
            for &b in &order[i + 1..] {
                eco[a][b] = true;
            }
        }
    }
    for (&r, w) in reads.iter().zip(rf) {
        let loc = events[r].op.loc();
        let order = &co[loc.unwrap_or(0)];
        match *w {
            Some(w) => {
                eco[w][r] = true;
                let after = rank(w).map_or(0, |p| p + 1);
                for &later in &order[after.min(order.len())..] {
                    if later != r {
                        eco[r][later] = true;
                    }
                }
            }
            None => {
                for &later in order {
                    if later != r {
                        eco[r][later] = true;
                    }
                }
            }
        }
    }
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                eco[a][b] |= eco[a][k] && eco[k][b];
            }
        }
    }
    for a in 0..n {
        for b in 0..n {
            if hb[a][b] && (a == b || eco[b][a]) {
                let l = events[a].op.loc().unwrap_or(0);
                return Some(format!(
                    "coherence: {} happens before {}, yet in the order of {} (reads-from, coherence, from-read) {} comes first: a cycle",
                    describe(events, a),
                    describe(events, b),
                    LOCATIONS[l],
                    describe(events, b)
                ));
            }
        }
    }
    None
}
