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
//! or a barrier `workgroupBarrier()` / `storageBarrier()`.

mod parse;
pub mod sc;
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Store {
        loc: usize,
        value: u32,
    },
    Load {
        reg: usize,
        loc: usize,
    },
    Rmw {
        reg: usize,
        loc: usize,
        rmw: Rmw,
    },
    /// `workgroupBarrier()` (workgroup memory) or `storageBarrier()` (storage memory).
    Barrier(Space),
}

impl Op {
    pub fn loc(self) -> Option<usize> {
        match self {
            Op::Store { loc, .. } | Op::Load { loc, .. } | Op::Rmw { loc, .. } => Some(loc),
            Op::Barrier(_) => None,
        }
    }
}

/// Where the test's threads run: each in a workgroup of its own, or all in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Across,
    Same,
}

/// A parsed test: its threads, the registers in order of appearance (thread 0 first), where
/// the threads run and which memory the locations live in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusTest {
    pub threads: Vec<Vec<Op>>,
    pub registers: Vec<String>,
    pub placement: Placement,
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
            if let Op::Load { reg, loc } | Op::Rmw { reg, loc, .. } = *op {
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
    if test.placement != Placement::Same {
        return None;
    }
    let kinds = |ops: &[Op]| ops.iter().filter_map(|op| if let Op::Barrier(k) = op { Some(*k) } else { None }).collect::<Vec<_>>();
    let name = |k: Space| if k == Space::Workgroup { "workgroupBarrier()" } else { "storageBarrier()" };
    let first = kinds(test.threads.first()?);
    for (t, ops) in test.threads.iter().enumerate().skip(1) {
        let these = kinds(ops);
        if these.len() != first.len() {
            return Some((t, format!("in one workgroup every thread must reach the same barriers: T0 reaches {}, T{t} {}", first.len(), these.len())));
        }
        if let Some(k) = (0..first.len()).find(|&k| first[k] != these[k]) {
            return Some((
                t,
                format!(
                    "in one workgroup every thread must reach the same barriers: T0's barrier {} is {}, T{t}'s is {}",
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

/// The preset `name`, its text.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
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
    if test.placement == Placement::Same {
        let most = threads.iter().map(|t| barriers(t)).max().unwrap_or(0);
        for t in &mut threads {
            while barriers(t) < most {
                t.push(Op::Barrier(kind));
            }
        }
    }
    LitmusTest { threads, ..test.clone() }
}

fn barriers(ops: &[Op]) -> usize {
    ops.iter().filter(|op| matches!(op, Op::Barrier(_))).count()
}
