//! Sequential consistency: the threads' statements interleaved in every order, one at a time
//! against one memory. Each outcome reached comes with an interleaving that reaches it.

use super::{LitmusTest, Op, Outcome, LOCATIONS};
use std::collections::{BTreeMap, HashSet};

/// One statement of one thread: `(thread, statement index)`.
pub type Move = (usize, usize);

/// Every outcome sequential consistency reaches, each with the first interleaving found that
/// reaches it (the order in which statements ran; barriers included).
pub fn reachable(test: &LitmusTest) -> BTreeMap<Outcome, Vec<Move>> {
    let mut found = BTreeMap::new();
    let start = State {
        pcs: vec![0; test.threads.len()],
        memory: [0; LOCATIONS.len()],
        registers: vec![0; test.registers.len()],
        waiting: vec![false; test.threads.len()],
    };
    explore(test, start, &mut Vec::new(), &mut found, &mut HashSet::new());
    found
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    pcs: Vec<usize>,
    memory: [u32; LOCATIONS.len()],
    registers: Vec<u32>,
    /// Threads arrived at a barrier of one shared workgroup, waiting for the rest.
    waiting: Vec<bool>,
}

/// Explores every interleaving from `state`, each state once: what can follow a state does not
/// depend on how it was reached, so a second visit would find nothing new.
fn explore(test: &LitmusTest, state: State, path: &mut Vec<Move>, found: &mut BTreeMap<Outcome, Vec<Move>>, seen: &mut HashSet<State>) {
    if !seen.insert(state.clone()) {
        return;
    }
    let mut moved = false;
    for t in 0..test.threads.len() {
        let Some(&op) = test.threads[t].get(state.pcs[t]) else { continue };
        if state.waiting[t] {
            continue;
        }
        moved = true;
        path.push((t, state.pcs[t]));
        match op {
            // Alone in its workgroup, a thread passes a barrier at once; sharing one, it waits
            // until every thread of its workgroup has arrived, and then they go on together.
            Op::Barrier(_) if (0..test.threads.len()).any(|u| u != t && test.together(t, u)) => {
                let mut next = state.clone();
                next.waiting[t] = true;
                let group = |u: usize| test.together(t, u);
                if next.waiting.iter().zip(&next.pcs).enumerate().filter(|(u, _)| group(*u)).all(|(u, (w, &pc))| *w || pc >= test.threads[u].len()) {
                    for u in (0..test.threads.len()).filter(|&u| group(u)) {
                        if next.waiting[u] {
                            next.waiting[u] = false;
                            next.pcs[u] += 1;
                        }
                    }
                }
                explore(test, next, path, found, seen);
            }
            _ => {
                for next in step(&state, t, op) {
                    explore(test, next, path, found, seen);
                }
            }
        }
        path.pop();
    }
    if !moved {
        let outcome = Outcome { registers: state.registers.clone(), finals: test.overwritten().into_iter().map(|l| (l, state.memory[l])).collect() };
        found.entry(outcome).or_insert_with(|| path.clone());
    }
}

/// The states thread `t` can leave after running `op`: one, or two for a compare-exchange that
/// may fail even where it found what it expected.
fn step(state: &State, t: usize, op: Op) -> Vec<State> {
    let mut next = state.clone();
    next.pcs[t] += 1;
    match op {
        Op::Store { loc, value, .. } => next.memory[loc] = value,
        Op::Load { reg, loc, .. } => next.registers[reg] = state.memory[loc],
        Op::Rmw { reg, loc, rmw, .. } => {
            let old = state.memory[loc];
            next.registers[reg] = old;
            if let Some(new) = rmw.written(old) {
                let failed = next.clone();
                next.memory[loc] = new;
                if matches!(rmw, super::Rmw::CompareExchange { .. }) {
                    return vec![next, failed];
                }
            }
        }
        // Every order and fence is sequentially consistent here already.
        Op::Barrier(_) | Op::Fence { .. } => {}
    }
    vec![next]
}
