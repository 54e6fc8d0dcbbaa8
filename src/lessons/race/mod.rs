//! The race-condition lesson: `counter++` from many threads, racy or atomic.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_race.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::Machine;
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/race/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const RACY: Kernel = crate::kernel!("race", "race_racy.wgsl");
    pub const ATOMIC: Kernel = crate::kernel!("race", "race_atomic.wgsl");
    pub const REPLAY_RACY: Kernel = crate::kernel!("race", "race_replay_racy.wgsl");
    pub const REPLAY_ATOMIC: Kernel = crate::kernel!("race", "race_replay_atomic.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[RACY, ATOMIC, REPLAY_RACY, REPLAY_ATOMIC];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "race",
    title: "The lost update",
    summary: "counter++ from many threads: watch an update vanish, then fix it with atomicAdd.",
    chapter: super::Chapter::Atomics,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Variant>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::RaceLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("race", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-race.json", text: measured::H100_RACE, schema: None }],
};

/// The one memory cell of this lesson.
pub const COUNTER: usize = 0;

/// Model threads the lesson can show: a few to follow by eye, up to a whole 64-lane
/// wavefront to see lockstep collapse it to one.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `atomicLoad`, add, `atomicStore`: three steps with a window between them.
    Racy,
    /// `atomicAdd`: one indivisible step.
    Atomic,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Racy => "racy",
            Variant::Atomic => "atomic",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "racy" => Some(Variant::Racy),
            "atomic" => Some(Variant::Atomic),
            _ => None,
        }
    }

    /// The kernel's own program, lowered from its WGSL when the site was built.
    pub fn lowered(self) -> &'static stepper::Program {
        match self {
            Variant::Racy => &crate::stepped::RACE_RACY,
            Variant::Atomic => &crate::stepped::RACE_ATOMIC,
        }
    }

    /// A fresh model: the kernel itself, `threads` invocations in one workgroup, the counter at 0.
    pub fn machine(self, threads: usize) -> Machine {
        let setup = kernel::one_workgroup(threads, vec![((0, 1), vec![threads as u32])]);
        kernel::machine_or_empty(self.lowered(), self.kernel().source(), &setup, Show { values: &["value"], ..Show::default() })
    }

    /// The kernel the GPU panel dispatches.
    pub fn kernel(self) -> Kernel {
        match self {
            Variant::Racy => kernels::RACY,
            Variant::Atomic => kernels::ATOMIC,
        }
    }

    /// The instrumented kernel that records each access for the replay.
    pub fn replay_kernel(self) -> Kernel {
        match self {
            Variant::Racy => kernels::REPLAY_RACY,
            Variant::Atomic => kernels::REPLAY_ATOMIC,
        }
    }

    /// Final counts the rules allow after `n` increments from 0.
    ///
    /// Racy: every store writes one more than some value already in the counter, so the final
    /// value is at least 1 and at most `n`; any value in between can happen. Atomic: exactly
    /// `n`. The host tests check this against every interleaving of the model.
    pub fn allowed_final_counts(self, n: u32) -> RangeInclusive<u32> {
        match (self, n) {
            (_, 0) => 0..=0,
            (Variant::Racy, n) => 1..=n,
            (Variant::Atomic, n) => n..=n,
        }
    }
}

pub use crate::gpu::params::{check_params, ComputeLimits, GpuParams, MAX_INVOCATIONS};

/// Most invocations the replay records: enough to see a pattern, few enough to read.
pub const MAX_REPLAY_INVOCATIONS: u32 = 16;

/// Links to this lesson: its variant, the model's state and the GPU sizes.
pub type RaceSettings = crate::site::settings::LessonSettings<Variant>;

impl crate::site::settings::LessonVariant for Variant {
    fn try_this(self) -> &'static str {
        match self.name() {
            "racy" => words::TRY_RACY,
            "atomic" => words::TRY_ATOMIC,
            _ => "",
        }
    }

    const NAMES: &'static [&'static str] = &["racy", "atomic"];
    const DEFAULT: Variant = Variant::Racy;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        Variant::name(self)
    }

    fn from_name(name: &str) -> Option<Self> {
        Variant::from_name(name)
    }

    fn machine(self, threads: usize) -> Machine {
        Variant::machine(self, threads)
    }
}

/// Every model program the lesson steps, with the kernel it is lowered from.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    [Variant::Racy, Variant::Atomic].into_iter().map(|v| (v.machine(2).program().as_ref().clone(), v.kernel())).collect()
}
