//! `?lesson=spinlock`: a lock built from compare-exchange guarding a plain `counter++`, with
//! every spin bounded. WGSL promises neither forward progress between invocations nor any
//! ordering of the counter by the lock, so the page reports what the reader's GPU did.

pub mod cuda_lock;
pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_spinlock.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::{Instr, Line, Machine, Program, Span};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/spinlock/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const NO_LOCK: Kernel = crate::kernel!("spinlock", "spinlock_none.wgsl");
    pub const SPIN_THEN_ENTER: Kernel = crate::kernel!("spinlock", "spinlock_spin_then_enter.wgsl");
    pub const ENTER_IN_LOOP: Kernel = crate::kernel!("spinlock", "spinlock_enter_in_loop.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[NO_LOCK, SPIN_THEN_ENTER, ENTER_IN_LOOP];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "spinlock",
    title: "A spinlock, and why not",
    summary: "A lock from compare-exchange around counter++, every spin bounded: count the give-ups and the increments still lost.",
    chapter: super::Chapter::Contention,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Lock>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::SpinlockLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("spinlock", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-spinlock.json", text: measured::H100_SPINLOCK, schema: Some(measured::SCHEMA) }],
};

/// Memory cells of the model.
pub const COUNTER: usize = 0;
pub const LOCK: usize = 1;
pub const GAVE_UP: usize = 2;
/// Registers.
pub const GOT: usize = 0;
pub const TRIES: usize = 1;
pub const VALUE: usize = 2;
pub const OLD: usize = 3;

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// Tries before a model thread gives up: few, so that give-ups happen where they can be seen.
pub const MODEL_TRIES: i64 = 4;

/// Tries before an invocation of the real kernel gives up (`MAX_TRIES` in the shaders; the
/// lesson's text says 20,000).
pub const MAX_TRIES: u32 = 20_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lock {
    /// `counter++` with no lock: the race lesson's lost updates.
    None,
    /// Spin until the lock is taken, then run the critical section after the loop.
    SpinThenEnter,
    /// Run the critical section inside the loop, in the iteration that took the lock.
    EnterInLoop,
}

impl Lock {
    pub fn kernel(self) -> Kernel {
        match self {
            Lock::None => kernels::NO_LOCK,
            Lock::SpinThenEnter => kernels::SPIN_THEN_ENTER,
            Lock::EnterInLoop => kernels::ENTER_IN_LOOP,
        }
    }

    /// The model program; both locked kernels take the same steps, on different lines.
    pub fn program(self) -> Program {
        let memory_names = vec!["counter".to_owned(), "lock".to_owned(), "gave_up".to_owned()];
        let register_names = vec!["got", "tries", "value", "old"];
        let increment = [
            Line { instr: Instr::Load { reg: VALUE, addr: COUNTER }, marker: "load" },
            Line { instr: Instr::AddImm { reg: VALUE, imm: 1 }, marker: "add" },
            Line { instr: Instr::Store { addr: COUNTER, reg: VALUE }, marker: "store" },
        ];
        if self == Lock::None {
            return Program { lines: increment.to_vec(), memory_names, register_names, grids: Vec::new(), workgroup: &[], floats: &[], packed: &[], masks: &[], mask_lanes: 0, subgroups: None, spans: Vec::new(), lowered: None };
        }
        let critical = 6;
        let end = 10;
        let mut lines = vec![
            Line { instr: Instr::TryLock { addr: LOCK, got: GOT }, marker: "try" },
            Line { instr: Instr::BranchIfNonZero { reg: GOT, target: critical }, marker: "got" },
            Line { instr: Instr::AddImm { reg: TRIES, imm: 1 }, marker: "count" },
            Line { instr: Instr::BranchIfBelow { reg: TRIES, limit: MODEL_TRIES, target: 0 }, marker: "again" },
            Line { instr: Instr::AtomicAdd { reg: OLD, addr: GAVE_UP, imm: 1 }, marker: "give-up" },
            Line { instr: Instr::Jump { target: end }, marker: "stop" },
        ];
        lines.extend(increment);
        lines.push(Line { instr: Instr::StoreImm { addr: LOCK, value: 0 }, marker: "unlock" });
        debug_assert_eq!(lines.len(), end);
        // Between its increment and its release, a thread holds the lock: the scene says so.
        let spans = Span::between(&lines, "has the lock", "load", "unlock").into_iter().collect();
        Program { lines, memory_names, register_names, grids: Vec::new(), workgroup: &[], floats: &[], packed: &[], masks: &[], mask_lanes: 0, subgroups: None, spans, lowered: None }
    }

    pub fn machine(self, threads: usize) -> Machine {
        Machine::new(Arc::new(self.program()), threads, vec![0; 3])
    }
}

impl crate::site::settings::LessonVariant for Lock {
    fn try_this(self) -> &'static str {
        match self.name() {
            "no-lock" => words::TRY_NO_LOCK,
            "spin-then-enter" => words::TRY_SPIN_THEN_ENTER,
            "enter-in-loop" => words::TRY_ENTER_IN_LOOP,
            _ => "",
        }
    }

    const NAMES: &'static [&'static str] = &["no-lock", "spin-then-enter", "enter-in-loop"];
    const DEFAULT: Lock = Lock::EnterInLoop;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        match self {
            Lock::None => "no-lock",
            Lock::SpinThenEnter => "spin-then-enter",
            Lock::EnterInLoop => "enter-in-loop",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        match name {
            "no-lock" => Some(Lock::None),
            "spin-then-enter" => Some(Lock::SpinThenEnter),
            "enter-in-loop" => Some(Lock::EnterInLoop),
            _ => None,
        }
    }

    fn machine(self, threads: usize) -> Machine {
        Lock::machine(self, threads)
    }
}

pub type SpinlockSettings = crate::site::settings::LessonSettings<Lock>;

/// What one dispatch counted on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockRun {
    /// The counter every invocation that entered incremented once, without an atomic add.
    pub counter: u32,
    /// Invocations that ran the critical section.
    pub entered: u32,
    /// Invocations that stopped at the bound on tries.
    pub gave_up: u32,
    /// Entries that found another invocation already inside.
    pub overlaps: u32,
}

/// A run held against what is guaranteed and against what a lock is meant to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockCheck {
    /// What atomics guarantee whatever the lock does: every invocation entered or gave up
    /// (no lock: all entered), and the counter is between 1 and the entries.
    pub consistent: bool,
    /// Increments that entered but are missing from the counter.
    pub lost: u32,
    /// A lock that did its job: no overlaps, no lost increments.
    pub excluded: bool,
}

pub fn check(lock: Lock, params: GpuParams, run: LockRun) -> LockCheck {
    let n = params.invocations;
    let accounted = match lock {
        Lock::None => run.entered == n && run.gave_up == 0,
        _ => u64::from(run.entered) + u64::from(run.gave_up) == u64::from(n),
    };
    let counter_in_range = run.counter <= run.entered && (run.entered == 0 || run.counter >= 1);
    let lost = run.entered.saturating_sub(run.counter);
    LockCheck { consistent: accounted && counter_in_range, lost, excluded: run.overlaps == 0 && lost == 0 }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    [Lock::None, Lock::SpinThenEnter, Lock::EnterInLoop].into_iter().map(|l| (l.program(), l.kernel())).collect()
}
