//! Litmus tests: a few threads of atomic accesses to the locations `x`, `y` and `z`, written as
//! text; every outcome their registers and final memory can end with; which of those sequential
//! consistency reaches (every interleaving enumerated, [`sc`]) and which WGSL's memory model
//! allows (every candidate execution enumerated, [`wgsl`]).
//!
//! The text, one thread per line or threads separated by `|`:
//!
//! ```text
//! T0: x = 1; y = 1
//! T1: r0 = y; r1 = x
//! ```
//!
//! A statement is a store `x = 1`, a load `r0 = x`, a read-modify-write
//! `r0 = atomicAdd(x, 1)`, `r0 = atomicExchange(x, 2)` or `r0 = atomicCompareExchangeWeak(x, 0, 1)`,
//! or a barrier `workgroupBarrier()` / `storageBarrier()`: WGSL's relaxed atomics, which all three
//! models read.
//!
//! Beyond WGSL, for the scoped model ([`scoped`], CUDA's PTX memory model): an access may say its
//! order and scope, `x.store(1, release, device)`, `r0 = y.load(acquire, workgroup)`,
//! `x.store(1, plain)` (non-atomic data), `r0 = atomicAdd(x, 1, acq_rel, device)`; a fence
//! `fence(acq_rel, device)`, `fence(seq_cst, workgroup)`, `__threadfence()`,
//! `__threadfence_block()`, `__threadfence_system()`; and a label may place its thread in a
//! workgroup, `T0@wg0:`.

mod parse;
pub mod sc;
pub mod scoped;
pub mod views;
pub mod wgsl;

pub use parse::{parse, ParseError};

use super::Space;

/// The locations a test may name, in the order outcomes list them.
pub const LOCATIONS: [&str; 3] = ["x", "y", "z"];

/// Most threads a test may have, and most statements a thread.
pub const MAX_THREADS: usize = 4;
pub const MAX_STATEMENTS: usize = 6;

/// What a read-modify-write writes, given what it read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rmw {
    Add(u32),
    Exchange(u32),
    /// Writes `value` only where it read `expected`; being WGSL's weak form, it may also fail
    /// where it did, writing nothing.
    CompareExchange {
        expected: u32,
        value: u32,
    },
}

impl Rmw {
    /// The value written after reading `old`, if it writes.
    pub fn written(self, old: u32) -> Option<u32> {
        match self {
            Rmw::Add(v) => Some(old.wrapping_add(v)),
            Rmw::Exchange(v) => Some(v),
            Rmw::CompareExchange { expected, value } => (old == expected).then_some(value),
        }
    }
}

/// How an access is ordered, in C++'s and CUDA's words. WGSL's atomics are all `Relaxed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Order {
    /// Not atomic: ordinary data, which two threads must not race on.
    Plain,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Order {
    pub const ALL: [Order; 6] = [Order::Plain, Order::Relaxed, Order::Acquire, Order::Release, Order::AcqRel, Order::SeqCst];

    pub fn name(self) -> &'static str {
        match self {
            Order::Plain => "plain",
            Order::Relaxed => "relaxed",
            Order::Acquire => "acquire",
            Order::Release => "release",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "seq_cst",
        }
    }

    pub fn acquires(self) -> bool {
        matches!(self, Order::Acquire | Order::AcqRel | Order::SeqCst)
    }

    pub fn releases(self) -> bool {
        matches!(self, Order::Release | Order::AcqRel | Order::SeqCst)
    }
}

/// Which threads an atomic access or fence is strong with: its workgroup (a CUDA block, a PTX
/// CTA), the whole device (PTX `.gpu`), or the system (with the host and other devices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    Workgroup,
    Device,
    System,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Workgroup, Scope::Device, Scope::System];

    pub fn name(self) -> &'static str {
        match self {
            Scope::Workgroup => "workgroup",
            Scope::Device => "device",
            Scope::System => "system",
        }
    }

    /// The scope WGSL gives its atomics in `memory`: workgroup memory is seen by one workgroup
    /// only; storage atomics are strong across the device.
    pub fn of_memory(memory: Space) -> Scope {
        match memory {
            Space::Workgroup => Scope::Workgroup,
            Space::Storage => Scope::Device,
        }
    }
}

/// An access's order and scope. `scope` is `None` where the text names none: the memory's own,
/// as WGSL has it ([`Scope::of_memory`]); a plain access has no scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    pub order: Order,
    pub scope: Option<Scope>,
}

impl Mode {
    /// WGSL's one kind of atomic access.
    pub const WGSL: Mode = Mode { order: Order::Relaxed, scope: None };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Store {
        loc: usize,
        value: u32,
        mode: Mode,
    },
    Load {
        reg: usize,
        loc: usize,
        mode: Mode,
    },
    Rmw {
        reg: usize,
        loc: usize,
        rmw: Rmw,
        mode: Mode,
    },
    /// `workgroupBarrier()` (workgroup memory) or `storageBarrier()` (storage memory).
    Barrier(Space),
    /// A fence, of any order but plain and relaxed, as written. The scoped model reads
    /// `SeqCst` as PTX's `fence.sc` (which CUDA's `__threadfence*()` are) and every other as
    /// `fence.acq_rel`, PTX's only other fence.
    Fence {
        order: Order,
        scope: Scope,
    },
}

impl Op {
    pub fn loc(self) -> Option<usize> {
        match self {
            Op::Store { loc, .. } | Op::Load { loc, .. } | Op::Rmw { loc, .. } => Some(loc),
            Op::Barrier(_) | Op::Fence { .. } => None,
        }
    }

    /// The access's order and scope; `None` for a barrier or fence.
    pub fn mode(self) -> Option<Mode> {
        match self {
            Op::Store { mode, .. } | Op::Load { mode, .. } | Op::Rmw { mode, .. } => Some(mode),
            Op::Barrier(_) | Op::Fence { .. } => None,
        }
    }
}

/// Where the test's threads run: each in a workgroup of its own, all in one, or as the test's
/// labels place them (`T0@wg0:`), some together and some apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Across,
    Same,
    Mixed,
}

/// A parsed test: its threads, the registers in order of appearance (thread 0 first), where
/// the threads run and which memory the locations live in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusTest {
    pub threads: Vec<Vec<Op>>,
    pub registers: Vec<String>,
    pub placement: Placement,
    /// Each thread's workgroup, numbered from 0 in order of first appearance.
    pub groups: Vec<usize>,
    /// Whether the text placed its threads itself (`T0@wg0:`), overriding the lab's setting.
    pub labelled: bool,
    pub memory: Space,
}

/// One part of an outcome: a register, or the final value of a location written more than once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub of: AxisOf,
    /// The location it reads or ends.
    pub loc: usize,
    /// Every value it may take, ascending.
    pub values: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisOf {
    /// Register `r` (in order of appearance).
    Register(usize),
    Final,
}

/// How a test ended: each register's value, then the final value of each location written
/// more than once (by coherence, the last write in its order).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outcome {
    pub registers: Vec<u32>,
    pub finals: Vec<(usize, u32)>,
}

impl LitmusTest {
    /// Whether threads `a` and `b` run in one workgroup.
    pub fn together(&self, a: usize, b: usize) -> bool {
        self.groups.get(a) == self.groups.get(b)
    }

    /// An access's scope, its memory's own where the text named none.
    pub fn scope_of(&self, mode: Mode) -> Scope {
        mode.scope.unwrap_or(Scope::of_memory(self.memory))
    }

    /// What this test says that WGSL cannot, in words (`None`: WGSL can write it as it is).
    pub fn beyond_wgsl(&self) -> Option<String> {
        let mut lacks: Vec<&str> = Vec::new();
        let mut note = |what: &'static str| {
            if !lacks.contains(&what) {
                lacks.push(what);
            }
        };
        let own = Scope::of_memory(self.memory);
        for op in self.threads.iter().flatten() {
            match *op {
                Op::Fence { .. } => note("fences"),
                _ => {
                    let Some(mode) = op.mode() else { continue };
                    match mode.order {
                        Order::Plain => note("non-atomic accesses in a race (the lab's kernels use atomics only)"),
                        Order::Relaxed => {}
                        Order::Acquire | Order::Release | Order::AcqRel | Order::SeqCst => note("memory orders other than relaxed"),
                    }
                    if mode.scope.is_some_and(|s| s != own) {
                        note(if own == Scope::Device {
                            "atomics scoped other than to the device in storage memory"
                        } else {
                            "atomics scoped beyond the workgroup in workgroup memory"
                        });
                    }
                }
            }
        }
        (!lacks.is_empty()).then(|| lacks.join("; "))
    }

    /// The nearest test WGSL can say: every access a relaxed atomic of its memory's scope, no
    /// fences. What a reader can run on their GPU in its place.
    pub fn nearest_wgsl(&self) -> LitmusTest {
        let threads = self
            .threads
            .iter()
            .map(|ops| {
                ops.iter()
                    .filter(|op| !matches!(op, Op::Fence { .. }))
                    .map(|&op| match op {
                        Op::Store { loc, value, .. } => Op::Store { loc, value, mode: Mode::WGSL },
                        Op::Load { reg, loc, .. } => Op::Load { reg, loc, mode: Mode::WGSL },
                        Op::Rmw { reg, loc, rmw, .. } => Op::Rmw { reg, loc, rmw, mode: Mode::WGSL },
                        other => other,
                    })
                    .collect()
            })
            .collect();
        LitmusTest { threads, ..self.clone() }
    }

    /// Locations more than one statement may write: their final values are part of an outcome.
    pub fn overwritten(&self) -> Vec<usize> {
        (0..LOCATIONS.len())
            .filter(|&l| {
                let writes = self.threads.iter().flatten().filter(|op| matches!(op, Op::Store { loc, .. } | Op::Rmw { loc, .. } if *loc == l));
                writes.count() > 1
            })
            .collect()
    }

    /// `r0=1 r1=0 x=2`: an outcome as the page names it (and its `data-outcome`).
    pub fn name(&self, outcome: &Outcome) -> String {
        let regs = self.registers.iter().zip(&outcome.registers).map(|(r, v)| format!("{r}={v}"));
        let finals = outcome.finals.iter().map(|&(l, v)| format!("{}={v}", LOCATIONS[l]));
        regs.chain(finals).collect::<Vec<_>>().join(" ")
    }

    /// What an outcome is made of, in order: each register (with the values its location may
    /// hold), then each overwritten location's final value. Outcomes number their combinations
    /// with the last axis counting fastest.
    pub fn axes(&self) -> Vec<Axis> {
        let mut reg_loc = vec![0; self.registers.len()];
        for op in self.threads.iter().flatten() {
            if let Op::Load { reg, loc, .. } | Op::Rmw { reg, loc, .. } = *op {
                reg_loc[reg] = loc;
            }
        }
        let registers = reg_loc.iter().enumerate().map(|(r, &l)| Axis { of: AxisOf::Register(r), loc: l, values: self.values_of(l) });
        let finals = self.overwritten().into_iter().map(|l| Axis { of: AxisOf::Final, loc: l, values: self.values_of(l) });
        registers.chain(finals).collect()
    }

    /// Every outcome the test's text allows to be written down: each register any value its
    /// location may hold, each overwritten location any value it may end with. Values a
    /// location may hold: 0, what is stored to it, and what its read-modify-writes make of
    /// those (as many times as it has read-modify-writes).
    pub fn outcomes(&self) -> Vec<Outcome> {
        let axes = self.axes();
        let registers = self.registers.len();
        let mut out = Vec::new();
        let mut pick = vec![0usize; axes.len()];
        loop {
            let values: Vec<u32> = pick.iter().zip(&axes).map(|(&i, a)| a.values[i]).collect();
            let (regs, finals) = values.split_at(registers);
            out.push(Outcome { registers: regs.to_vec(), finals: axes[registers..].iter().map(|a| a.loc).zip(finals.iter().copied()).collect() });
            // The next combination, the last axis fastest.
            let mut k = axes.len();
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                pick[k] += 1;
                if pick[k] < axes[k].values.len() {
                    break;
                }
                pick[k] = 0;
            }
        }
    }

    fn values_of(&self, loc: usize) -> Vec<u32> {
        let ops: Vec<Op> = self.threads.iter().flatten().copied().filter(|op| op.loc() == Some(loc)).collect();
        let mut values = vec![0u32];
        for op in &ops {
            if let Op::Store { value, .. } = op {
                values.push(*value);
            }
        }
        let rmws: Vec<Rmw> = ops.iter().filter_map(|op| if let Op::Rmw { rmw, .. } = op { Some(*rmw) } else { None }).collect();
        // Chains of up to one read-modify-write each: a round applies each to every value known
        // so far. The values are kept as a set, so a test of many read-modify-writes on one
        // location does not multiply them round after round (ten exchanges took the tab seconds).
        for _ in 0..rmws.len() {
            let more: Vec<u32> = values.iter().flat_map(|&v| rmws.iter().filter_map(move |r| r.written(v))).filter(|v| !values.contains(v)).collect();
            if more.is_empty() {
                break;
            }
            values.extend(more);
            values.sort_unstable();
            values.dedup();
        }
        values.sort_unstable();
        values.dedup();
        values
    }
}

/// In one workgroup, where the threads' barriers differ: the first thread whose barriers are
/// not thread 0's, and why. WGSL requires every invocation of a workgroup to reach the same
/// barrier calls (uniform control flow), so the threads must have as many barriers, and the
/// k-th of each the same kind: a test that breaks this has no kernel to run and no meaning.
pub fn barrier_mismatch(test: &LitmusTest) -> Option<(usize, String)> {
    let kinds = |ops: &[Op]| ops.iter().filter_map(|op| if let Op::Barrier(k) = op { Some(*k) } else { None }).collect::<Vec<_>>();
    let name = |k: Space| if k == Space::Workgroup { "workgroupBarrier()" } else { "storageBarrier()" };
    for (t, ops) in test.threads.iter().enumerate().skip(1) {
        // The first thread of this one's workgroup.
        let Some(f) = (0..t).find(|&u| test.together(u, t)) else { continue };
        let (first, these) = (kinds(&test.threads[f]), kinds(ops));
        if these.len() != first.len() {
            return Some((t, format!("in one workgroup every thread must reach the same barriers: T{f} reaches {}, T{t} {}", first.len(), these.len())));
        }
        if let Some(k) = (0..first.len()).find(|&k| first[k] != these[k]) {
            return Some((
                t,
                format!(
                    "in one workgroup every thread must reach the same barriers: T{f}'s barrier {} is {}, T{t}'s is {}",
                    k + 1,
                    name(first[k]),
                    name(these[k])
                ),
            ));
        }
    }
    None
}

/// The litmus tests everyone runs, by name, in the lab's syntax.
pub const PRESETS: [(&str, &str); 11] = [
    ("mp", "T0: x=1; y=1 | T1: r0=y; r1=x"),
    ("sb", "T0: x=1; r0=y | T1: y=1; r1=x"),
    ("lb", "T0: r0=x; y=1 | T1: r1=y; x=1"),
    ("s", "T0: x=2; y=1 | T1: r0=y; x=1"),
    ("r", "T0: x=1; y=1 | T1: y=2; r0=x"),
    ("2+2w", "T0: x=1; y=2 | T1: y=1; x=2"),
    ("iriw", "T0: x=1 | T1: y=1 | T2: r0=x; r1=y | T3: r2=y; r3=x"),
    ("corr", "T0: x=1 | T1: r0=x; r1=x"),
    ("coww", "T0: x=1; x=2"),
    ("corw", "T0: r0=x; x=1"),
    ("cowr", "T0: x=1; r0=x | T1: x=2"),
];

/// Tests beyond WGSL, for the scoped model: message passing and store buffering made safe (or
/// not) by orders, scopes and fences, as CUDA writes them.
pub const SCOPED_PRESETS: [(&str, &str); 6] = [
    (
        "mp-release-acquire",
        "T0@wg0: x.store(1, relaxed, device); y.store(1, release, device) | T1@wg1: r0 = y.load(acquire, device); r1 = x.load(relaxed, device)",
    ),
    (
        "mp-workgroup-scope",
        "T0@wg0: x.store(1, relaxed, device); y.store(1, release, workgroup) | T1@wg1: r0 = y.load(acquire, workgroup); r1 = x.load(relaxed, device)",
    ),
    ("mp-threadfence", "T0@wg0: x.store(1, plain); __threadfence(); y = 1 | T1@wg1: r0 = y; __threadfence(); r1 = x.load(plain)"),
    ("mp-fence-block", "T0@wg0: x.store(1, plain); __threadfence_block(); y = 1 | T1@wg1: r0 = y; __threadfence_block(); r1 = x.load(plain)"),
    ("sb-fence-sc", "T0: x = 1; fence(seq_cst, device); r0 = y | T1: y = 1; fence(seq_cst, device); r1 = x"),
    ("sb-fence-acq-rel", "T0: x = 1; fence(acq_rel, device); r0 = y | T1: y = 1; fence(acq_rel, device); r1 = x"),
];

/// The preset `name`, its text.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().chain(&SCOPED_PRESETS).find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// A test's text with a barrier of `kind` between each thread's consecutive accesses. Where all
/// threads share a workgroup, each must reach as many barriers as the others: a thread with
/// fewer accesses gets the rest after its last.
pub fn with_barriers(test: &LitmusTest, kind: Space) -> LitmusTest {
    let mut threads: Vec<Vec<Op>> = test
        .threads
        .iter()
        .map(|ops| {
            let mut out = Vec::new();
            for (i, op) in ops.iter().enumerate() {
                if i > 0 {
                    out.push(Op::Barrier(kind));
                }
                out.push(*op);
            }
            out
        })
        .collect();
    // Each workgroup's threads reach as many barriers as the one of them with the most.
    for t in 0..threads.len() {
        let most = (0..threads.len()).filter(|&u| test.together(t, u)).map(|u| barriers(&threads[u])).max().unwrap_or(0);
        while barriers(&threads[t]) < most {
            threads[t].push(Op::Barrier(kind));
        }
    }
    LitmusTest { threads, ..test.clone() }
}

fn barriers(ops: &[Op]) -> usize {
    ops.iter().filter(|op| matches!(op, Op::Barrier(_))).count()
}

/// Every order of `items`.
pub(crate) fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
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

/// Every way of taking one item from each list.
pub(crate) fn product<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    lists
        .iter()
        .fold(vec![Vec::new()], |acc, options| acc.iter().flat_map(|prefix| options.iter().map(move |o| [prefix.clone(), vec![o.clone()]].concat())).collect())
}
