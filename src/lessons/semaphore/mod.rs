//! `?lesson=semaphore`: CUDA's `counting_semaphore<4>` and `binary_semaphore` (a mutex), built
//! in WGSL from `atomicCompareExchangeWeak` and `atomicAdd`, every wait bounded; and the version
//! that reads the count and then takes a slot, which lets too many in. The kernel records the
//! most invocations ever inside at once, so the page shows whether the limit held.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_semaphore.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::{Instr, IntType, Line, Machine, Program, RmwOp, Span};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/semaphore/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const ACQUIRE: Kernel = crate::kernel!("semaphore", "semaphore_acquire.wgsl");
    pub const CHECK_THEN_TAKE: Kernel = crate::kernel!("semaphore", "semaphore_check_then_take.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[ACQUIRE, CHECK_THEN_TAKE];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "semaphore",
    title: "A semaphore: at most four inside",
    summary: "counting_semaphore<4> and the binary semaphore from compare-exchange, every wait bounded: the most ever inside, counted on your GPU.",
    chapter: super::Chapter::Visibility,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Semaphore>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::SemaphoreLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("semaphore", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-semaphore.json", text: measured::H100_SEMAPHORE, schema: Some(measured::SCHEMA) }],
};

/// Memory cells of the model.
pub const COUNT: usize = 0;
pub const INSIDE: usize = 1;
pub const PEAK: usize = 2;
pub const GAVE_UP: usize = 3;
/// Registers.
pub const SEEN: usize = 0;
pub const WANT: usize = 1;
pub const TOOK: usize = 2;
pub const MINE: usize = 3;
pub const TRIES: usize = 4;
pub const OLD: usize = 5;

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// Tries before a model thread gives up: few, so that a give-up can be seen.
pub const MODEL_TRIES: i64 = 6;

/// Tries before an invocation of the real kernel gives up (`MAX_TRIES` in the shaders).
pub const MAX_TRIES: u32 = 20_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Semaphore {
    /// `counting_semaphore<4>`: read the count, swap it for one less if a slot is free.
    Counting,
    /// `binary_semaphore`: the same with one slot, a mutex.
    Binary,
    /// Read the count, then take a slot with a separate `atomicAdd(-1)`: two atomics where
    /// one is needed.
    CheckThenTake,
}

impl Semaphore {
    pub const ALL: [Semaphore; 3] = [Semaphore::Counting, Semaphore::Binary, Semaphore::CheckThenTake];

    /// How many may be inside at once: the count the semaphore starts with.
    pub fn limit(self) -> u32 {
        match self {
            Semaphore::Binary => 1,
            Semaphore::Counting | Semaphore::CheckThenTake => 4,
        }
    }

    pub fn kernel(self) -> Kernel {
        match self {
            Semaphore::Counting | Semaphore::Binary => kernels::ACQUIRE,
            Semaphore::CheckThenTake => kernels::CHECK_THEN_TAKE,
        }
    }

    /// Written by hand: its threads are the kernel's invocations and could step the kernel itself,
    /// which this lesson has not moved to yet (see docs/stepper.md).
    /// The model program: the kernel's lines, one step each, the critical section inside the
    /// loop and every failed try counted.
    pub fn program(self) -> Program {
        let memory_names = ["count", "inside", "peak", "gave_up"].map(str::to_owned).to_vec();
        let register_names = vec!["seen", "want", "took", "inside", "tries", "old"];
        let take: &[Line] = match self {
            Semaphore::CheckThenTake => &[Line { instr: Instr::AtomicAdd { reg: OLD, addr: COUNT, imm: -1 }, marker: "take" }],
            Semaphore::Counting | Semaphore::Binary => &[
                Line { instr: Instr::Offset { reg: WANT, from: SEEN, imm: -1 }, marker: "less" },
                Line { instr: Instr::CompareExchange { addr: COUNT, expected: SEEN, desired: WANT, old: OLD, exchanged: TOOK }, marker: "take" },
                Line { instr: Instr::BranchIfBelow { reg: TOOK, limit: 1, target: usize::MAX }, marker: "took" },
            ],
        };
        let critical = [
            Line { instr: Instr::AtomicAdd { reg: MINE, addr: INSIDE, imm: 1 }, marker: "enter" },
            Line { instr: Instr::AddImm { reg: MINE, imm: 1 }, marker: "one more" },
            Line { instr: Instr::AtomicRmw { op: RmwOp::Max, ty: IntType::I32, addr: PEAK, operand: MINE, old: OLD }, marker: "peak" },
            Line { instr: Instr::AtomicAdd { reg: OLD, addr: INSIDE, imm: -1 }, marker: "leave" },
            Line { instr: Instr::AtomicAdd { reg: OLD, addr: COUNT, imm: 1 }, marker: "release" },
        ];
        let mut lines = vec![
            Line { instr: Instr::Load { reg: SEEN, addr: COUNT }, marker: "read" },
            Line { instr: Instr::BranchIfBelow { reg: SEEN, limit: 1, target: usize::MAX }, marker: "free" },
        ];
        lines.extend_from_slice(take);
        lines.extend(critical);
        // The failed-try path follows the way out, so "done" jumps past it to the end.
        let retry = lines.len() + 1;
        let end = retry + 3;
        lines.push(Line { instr: Instr::Jump { target: end }, marker: "done" });
        lines.push(Line { instr: Instr::AddImm { reg: TRIES, imm: 1 }, marker: "count" });
        lines.push(Line { instr: Instr::BranchIfBelow { reg: TRIES, limit: MODEL_TRIES, target: 0 }, marker: "again" });
        lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: GAVE_UP, imm: 1 }, marker: "give-up" });
        debug_assert_eq!(lines.len(), end);
        // A failed test (no slot free, or the exchange lost) goes on to the count of tries.
        for line in &mut lines {
            if let Instr::BranchIfBelow { target, .. } = &mut line.instr {
                if *target == usize::MAX {
                    *target = retry;
                }
            }
        }
        // From entering to releasing, a thread holds a slot: the scene says it is inside.
        let spans = Span::between(&lines, "inside", "enter", "release").into_iter().collect();
        Program { lines, memory_names, register_names, grids: Vec::new(), workgroup: &[], floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans, lowered: None }
    }

    pub fn machine(self, threads: usize) -> Machine {
        Machine::new(Arc::new(self.program()), threads, vec![i64::from(self.limit()), 0, 0, 0])
    }
}

impl crate::site::settings::LessonVariant for Semaphore {
    fn try_this(self) -> &'static str {
        match self {
            Semaphore::Counting => words::TRY_COUNTING,
            Semaphore::Binary => words::TRY_BINARY,
            Semaphore::CheckThenTake => words::TRY_CHECK_THEN_TAKE,
        }
    }

    const NAMES: &'static [&'static str] = &["counting", "binary", "check-then-take"];
    const DEFAULT: Semaphore = Semaphore::Counting;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 8;

    fn name(self) -> &'static str {
        match self {
            Semaphore::Counting => "counting",
            Semaphore::Binary => "binary",
            Semaphore::CheckThenTake => "check-then-take",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Semaphore::ALL.into_iter().find(|s| s.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        Semaphore::machine(self, threads)
    }
}

/// What one dispatch counted on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemaphoreRun {
    /// The count once every invocation has finished.
    pub count: i32,
    pub entered: u32,
    pub gave_up: u32,
    /// `inside` once every invocation has finished.
    pub inside: i32,
    /// The most invocations `inside` ever counted at once.
    pub peak: i32,
    /// Entries that made `inside` exceed the limit.
    pub over: u32,
}

/// A run held against what is guaranteed and against what a semaphore is meant to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemaphoreCheck {
    /// What atomics guarantee whatever the schedule: every invocation entered or gave up, the
    /// count and `inside` end where they began (each is only ever changed by read-modify-writes
    /// that are undone), and the peak lies between 1 and the entries when anyone entered.
    pub consistent: bool,
    /// No more than the limit were ever counted inside.
    pub limit_held: bool,
}

pub fn check(semaphore: Semaphore, params: GpuParams, run: SemaphoreRun) -> SemaphoreCheck {
    let n = u64::from(params.invocations);
    let accounted = u64::from(run.entered) + u64::from(run.gave_up) == n;
    let balanced = i64::from(run.count) == i64::from(semaphore.limit()) && run.inside == 0;
    let peak_in_range = match run.entered {
        0 => run.peak == 0 && run.over == 0,
        e => run.peak >= 1 && i64::from(run.peak) <= i64::from(e) && run.over <= e,
    };
    let limit_held = i64::from(run.peak) <= i64::from(semaphore.limit()) && run.over == 0;
    SemaphoreCheck { consistent: accounted && balanced && peak_in_range, limit_held }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    Semaphore::ALL.into_iter().map(|s| (s.program(), s.kernel())).collect()
}
