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
use crate::model::kernel::{self, Show};
use crate::model::Machine;
use std::ops::RangeInclusive;

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

/// Memory cells of the model: the counter, the kernel's four counts (`stats`), then the lock
/// (in the locked kernels).
pub const COUNTER: usize = 0;
pub const GAVE_UP: usize = 2;
pub const LOCK: usize = 5;

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

    /// The kernel's own program, lowered from its WGSL when the site was built.
    pub fn lowered(self) -> &'static stepper::Program {
        match self {
            Lock::None => &crate::stepped::SPINLOCK_NONE,
            Lock::SpinThenEnter => &crate::stepped::SPINLOCK_SPIN_THEN_ENTER,
            Lock::EnterInLoop => &crate::stepped::SPINLOCK_ENTER_IN_LOOP,
        }
    }

    /// The kernel itself for `threads` invocations in one workgroup, giving up after
    /// [`MODEL_TRIES`] tries (`MAX_TRIES` is an override). Between its increment and its release
    /// a thread holds the lock: the scene says so.
    pub fn machine(self, threads: usize) -> Machine {
        let mut setup = kernel::one_workgroup(threads, vec![((0, 2), vec![threads as u32])]);
        setup.overrides.push(("MAX_TRIES".into(), MODEL_TRIES as u32));
        let show = Show { memory: &["counter", "stats", "lock"], values: &["got", "tries", "value"], ..Show::default() };
        let source = self.kernel().source();
        let m = kernel::machine_or_empty(self.lowered(), source, &setup, show);
        let held = kernel::span(m.program(), source, "has the lock", "load", "unlock");
        m.with_program(|p| p.spans.extend(held))
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
fn models() -> Vec<(crate::model::Program, Kernel)> {
    [Lock::None, Lock::SpinThenEnter, Lock::EnterInLoop].into_iter().map(|l| (l.machine(2).program().as_ref().clone(), l.kernel())).collect()
}
