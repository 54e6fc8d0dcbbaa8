//! Visibility you can watch: the scoped model run one step at a time, with each location's
//! writes kept as a history in coherence order and each thread's *view* of each location — how
//! far along that history it has seen.
//!
//! - A load reads any write at or after its thread's view of the location (a stale one too), and
//!   its view moves up to the write it read.
//! - A store adds a write at the end of the location's history; the thread's view moves to it.
//! - A release store carries its thread's whole view with it; a store after a release fence
//!   carries the view the thread had at the fence.
//! - An acquire load that reads a write carrying a view takes that view in (joins it), where
//!   the two ends are in each other's scope; a relaxed load keeps the view for a later acquire
//!   fence to take in.
//! - A `seq_cst` fence meets every other `seq_cst` fence of its scope in one order: it takes in
//!   the view the earlier ones left, and leaves its own joined to it.
//! - A barrier holds its workgroup's threads until all have arrived; then each takes in all
//!   their views.
//! - A read-modify-write reads the latest write of its location and adds its own after it.
//!
//! This operational reading reaches a subset of what the axiomatic model ([`super::scoped`])
//! allows: every outcome it reaches, that model allows. It cannot reach an outcome that needs a
//! read from a write not made yet (load buffering: each thread reads what the other writes
//! after its read), nor one whose stores land in the middle of a history.

use super::{LitmusTest, Op, Order, Outcome, Rmw, Scope, LOCATIONS};

/// Views of every location: how many writes of each history a thread has seen past the
/// initial one (0: the initial write only).
pub type View = [usize; LOCATIONS.len()];

fn join(a: &mut View, b: &View) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// One write of a location's history.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Message {
    pub value: u32,
    /// The thread and statement that wrote it; `None` for the initial 0.
    pub by: Option<(usize, usize)>,
    /// The view it carries for an acquire to take in (a release, or a store after a release
    /// fence), and the scope it carries it to.
    pub carries: Option<(View, Scope)>,
}

/// Where a run stands: every history, every thread's view, what each thread has done.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Visibility {
    pub histories: Vec<Vec<Message>>,
    pub views: Vec<View>,
    pub pcs: Vec<usize>,
    pub registers: Vec<u32>,
    /// The view a thread had at its last release fence (what its later stores carry).
    released: Vec<Option<(View, Scope)>>,
    /// Views of writes a thread read relaxed, for an acquire fence to take in.
    pending: Vec<View>,
    /// The view the `seq_cst` fences of each scope instance have left: one per workgroup for
    /// workgroup scope, then one for the device (and system).
    sc_views: Vec<View>,
    /// Threads arrived at a barrier, waiting for the rest of their workgroup.
    pub waiting: Vec<bool>,
}

/// What a thread may do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A load: the writes of its location it may read (indices into the history).
    Read { loc: usize, from: Vec<usize> },
    /// Anything else: one way to go on.
    Go,
    /// Waiting at a barrier, or finished.
    Blocked,
}

impl Visibility {
    pub fn start(test: &LitmusTest) -> Visibility {
        let threads = test.threads.len();
        let groups = test.groups.iter().max().map_or(1, |g| g + 1);
        Visibility {
            histories: vec![vec![Message { value: 0, by: None, carries: None }]; LOCATIONS.len()],
            views: vec![[0; LOCATIONS.len()]; threads],
            pcs: vec![0; threads],
            registers: vec![0; test.registers.len()],
            released: vec![None; threads],
            pending: vec![[0; LOCATIONS.len()]; threads],
            sc_views: vec![[0; LOCATIONS.len()]; groups + 1],
            waiting: vec![false; threads],
        }
    }

    pub fn finished(&self, test: &LitmusTest) -> bool {
        self.pcs.iter().zip(&test.threads).all(|(&pc, ops)| pc >= ops.len())
    }

    /// The outcome, once every thread has finished.
    pub fn outcome(&self, test: &LitmusTest) -> Outcome {
        let finals = test.overwritten().into_iter().map(|l| (l, self.histories[l].last().map_or(0, |m| m.value))).collect();
        Outcome { registers: self.registers.clone(), finals }
    }

    pub fn next(&self, test: &LitmusTest, t: usize) -> Next {
        let Some(&op) = test.threads[t].get(self.pcs[t]) else { return Next::Blocked };
        if self.waiting[t] {
            return Next::Blocked;
        }
        match op {
            Op::Load { loc, .. } => Next::Read { loc, from: (self.views[t][loc]..self.histories[loc].len()).collect() },
            _ => Next::Go,
        }
    }

    /// Thread `t` takes its next step; for a load, reading write `read` of its location's
    /// history (ignored otherwise). `None` if it cannot.
    pub fn step(&self, test: &LitmusTest, t: usize, read: usize) -> Option<Visibility> {
        let next = self.next(test, t);
        if next == Next::Blocked {
            return None;
        }
        if let Next::Read { from, .. } = &next {
            if !from.contains(&read) {
                return None;
            }
        }
        let op = test.threads[t][self.pcs[t]];
        let mut s = self.clone();
        let at = (t, s.pcs[t]);
        // Whether thread `u` lies within `scope` of thread `t`.
        let within = |scope: Scope, t: usize, u: usize| scope != Scope::Workgroup || test.together(t, u);
        match op {
            Op::Store { loc, value, mode } => {
                if mode.order == Order::SeqCst {
                    s.sc_fence(test, t, test.scope_of(mode));
                }
                s.write(t, loc, value, at, mode.order, test.scope_of(mode));
            }
            Op::Load { loc, reg, mode } => {
                if mode.order == Order::SeqCst {
                    s.sc_fence(test, t, test.scope_of(mode));
                }
                s.read(t, loc, read, mode.order.acquires(), test.scope_of(mode), &within);
                s.registers[reg] = s.histories[loc][read].value;
            }
            Op::Rmw { loc, reg, rmw, mode } => {
                if mode.order == Order::SeqCst {
                    s.sc_fence(test, t, test.scope_of(mode));
                }
                let latest = s.histories[loc].len() - 1;
                s.read(t, loc, latest, mode.order.acquires(), test.scope_of(mode), &within);
                let old = s.histories[loc][latest].value;
                s.registers[reg] = old;
                let new = match rmw {
                    Rmw::Add(v) => Some(old.wrapping_add(v)),
                    Rmw::Exchange(v) => Some(v),
                    Rmw::CompareExchange { expected, value } => (old == expected).then_some(value),
                };
                if let Some(new) = new {
                    s.write(t, loc, new, at, if mode.order.releases() { Order::Release } else { Order::Relaxed }, test.scope_of(mode));
                }
            }
            Op::Fence { order, scope } => {
                // Acquire side: take in what relaxed loads read.
                let pending = s.pending[t];
                join(&mut s.views[t], &pending);
                if order == Order::SeqCst {
                    s.sc_fence(test, t, scope);
                }
                // Release side: later stores carry this view.
                s.released[t] = Some((s.views[t], scope));
            }
            Op::Barrier(_) => {
                s.waiting[t] = true;
                let group: Vec<usize> = (0..test.threads.len()).filter(|&u| test.together(t, u)).collect();
                let all_in = group.iter().all(|&u| s.waiting[u] || s.pcs[u] >= test.threads[u].len());
                if !all_in {
                    return Some(s);
                }
                let mut joined = [0; LOCATIONS.len()];
                for &u in &group {
                    join(&mut joined, &s.views[u]);
                }
                for &u in &group {
                    if s.waiting[u] {
                        s.waiting[u] = false;
                        s.views[u] = joined;
                        s.pcs[u] += 1;
                    }
                }
                return Some(s);
            }
        }
        s.pcs[t] += 1;
        Some(s)
    }

    fn write(&mut self, t: usize, loc: usize, value: u32, at: (usize, usize), order: Order, scope: Scope) {
        let index = self.histories[loc].len();
        self.views[t][loc] = index;
        let carries = if order.releases() { Some((self.views[t], scope)) } else { self.released[t] };
        self.histories[loc].push(Message { value, by: Some(at), carries });
    }

    fn read(&mut self, t: usize, loc: usize, index: usize, acquire: bool, scope: Scope, within: &dyn Fn(Scope, usize, usize) -> bool) {
        self.views[t][loc] = self.views[t][loc].max(index);
        let message = &self.histories[loc][index];
        let Some((view, carried_to)) = message.carries else { return };
        let Some((writer, _)) = message.by else { return };
        // Synchronisation only between threads each within the other's scope.
        if !(within(carried_to, writer, t) && within(scope, t, writer)) {
            return;
        }
        if acquire {
            join(&mut self.views[t], &view);
        } else {
            join(&mut self.pending[t], &view);
        }
    }

    /// A `seq_cst` fence of `scope`: it meets the others of its scope instance in one order.
    fn sc_fence(&mut self, test: &LitmusTest, t: usize, scope: Scope) {
        let slot = if scope == Scope::Workgroup { test.groups[t] } else { self.sc_views.len() - 1 };
        let mut met = self.sc_views[slot];
        join(&mut met, &self.views[t]);
        self.views[t] = met;
        self.sc_views[slot] = met;
        // A device-wide fence also meets the workgroup-scoped ones of its own workgroup.
        if scope != Scope::Workgroup {
            let own = test.groups[t];
            join(&mut self.sc_views[own], &met);
        }
    }
}

/// Most states [`reachable`] visits before it gives up on a test: the scene asks again for
/// every test the reader types, so a large one is given up on rather than hold the page.
pub const MAX_STATES: usize = 20_000;

/// Every outcome a run can end with, each with the choices that reach it: `(thread, read)`
/// pairs, the read being the history index a load took (0 for any other step). `None` for a
/// test of more than [`MAX_STATES`] states.
pub fn reachable(test: &LitmusTest) -> Option<std::collections::BTreeMap<Outcome, Vec<(usize, usize)>>> {
    let mut found = std::collections::BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    explore(test, Visibility::start(test), &mut Vec::new(), &mut found, &mut seen);
    (seen.len() <= MAX_STATES).then_some(found)
}

fn explore(
    test: &LitmusTest,
    state: Visibility,
    path: &mut Vec<(usize, usize)>,
    found: &mut std::collections::BTreeMap<Outcome, Vec<(usize, usize)>>,
    seen: &mut std::collections::HashSet<Visibility>,
) {
    if seen.len() > MAX_STATES || !seen.insert(state.clone()) {
        return;
    }
    if state.finished(test) {
        found.entry(state.outcome(test)).or_insert_with(|| path.clone());
        return;
    }
    for t in 0..test.threads.len() {
        let reads = match state.next(test, t) {
            Next::Blocked => continue,
            Next::Go => vec![0],
            Next::Read { from, .. } => from,
        };
        for read in reads {
            if let Some(next) = state.step(test, t, read) {
                path.push((t, read));
                explore(test, next, path, found, seen);
                path.pop();
            }
        }
    }
}
