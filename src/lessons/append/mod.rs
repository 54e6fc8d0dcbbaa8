//! `?lesson=append`: parallel append. Invocations whose input passes a filter claim the next
//! free output slot with atomicAdd and write their value there. The count is exact; the
//! order in which values land is whatever order the GPU served the claims.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_append.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::{splitmix64, Machine};
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/append/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const APPEND: Kernel = crate::kernel!("append", "append.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[APPEND];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "append",
    title: "Appending in parallel",
    summary: "Invocations that pass a filter claim output slots with atomicAdd: an exact count, in an order that can change every run.",
    chapter: super::Chapter::Atomics,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Append>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::AppendLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("append", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-append.json", text: measured::H100_APPEND, schema: Some(measured::SCHEMA) }],
};

/// A value is kept when it is below this. `shaders/append/append.wgsl` declares the same constant;
/// a host test holds them together.
pub const LIMIT: i64 = 50;
/// The number of values appended so far: the next free slot.
pub const COUNT: usize = 0;
/// Inputs start here (one per thread); outputs follow them.
pub const INPUT: usize = 1;
/// Registers.
pub const VALUE: usize = 0;
pub const SLOT: usize = 1;

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// Input `i` of every run, in the model and on the GPU: a number from 0 to 99 that looks
/// random and is the same everywhere.
pub fn input_value(i: u32) -> u32 {
    (splitmix64(u64::from(i) ^ 0xA99E_17D0) % 100) as u32
}

/// The lesson has one program; this names it for links and settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Append;

impl Append {
    /// Where the outputs start in a model of `threads` threads.
    pub fn output_base(threads: usize) -> usize {
        INPUT + threads
    }

    /// The kernel itself, lowered from its WGSL: `threads` invocations in one workgroup, each
    /// with its input from [`input_value`].
    pub fn machine(threads: usize) -> Machine {
        let input = (0..threads as u32).map(input_value).collect();
        let setup = kernel::one_workgroup(threads, vec![((0, 1), input), ((0, 2), vec![0; threads]), ((0, 3), vec![threads as u32])]);
        kernel::machine_or_empty(&crate::stepped::APPEND, kernels::APPEND.source(), &setup, Show { values: &["value", "slot"], ..Show::default() })
    }

    pub fn kernel() -> Kernel {
        kernels::APPEND
    }
}

impl crate::site::settings::LessonVariant for Append {
    fn try_this(self) -> &'static str {
        words::TRY
    }

    const NAMES: &'static [&'static str] = &[];
    const DEFAULT: Append = Append;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 6;

    fn name(self) -> &'static str {
        "append"
    }

    fn from_name(_: &str) -> Option<Self> {
        Some(Append)
    }

    fn machine(self, threads: usize) -> Machine {
        Append::machine(threads)
    }
}

/// Links to this lesson: the model's state and the GPU sizes.
pub type AppendSettings = crate::site::settings::LessonSettings<Append>;

/// What an append run produced, against what it should have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppendCheck {
    /// Inputs that pass the filter: how many slots should be filled.
    pub expected: u32,
    pub count: u32,
    /// The filled slots hold exactly the passing inputs (as a multiset), and the count is exact.
    pub is_permutation: bool,
    /// Filled slots whose value equals the passing inputs in invocation order: how much of the
    /// output happens to keep input order.
    pub in_input_order: u32,
}

/// Checks `output[..count]` against the inputs of `invocations` invocations.
pub fn check(output: &[u32], count: u32, params: GpuParams) -> AppendCheck {
    let kept: Vec<u32> = (0..params.invocations).map(input_value).filter(|&v| i64::from(v) < LIMIT).collect();
    let expected = kept.len() as u32;
    let filled = output.get(..count as usize).unwrap_or(output);
    let mut a = filled.to_vec();
    let mut b = kept.clone();
    a.sort_unstable();
    b.sort_unstable();
    let in_input_order = filled.iter().zip(&kept).filter(|(x, y)| x == y).count() as u32;
    AppendCheck { expected, count, is_permutation: count == expected && a == b, in_input_order }
}

/// Slots (among the first `count`) whose value differs between two runs.
pub fn slots_changed(previous: &[u32], current: &[u32], count: u32) -> u32 {
    previous.iter().zip(current).take(count as usize).filter(|(a, b)| a != b).count() as u32
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    vec![(Append::machine(4).program().as_ref().clone(), Append::kernel())]
}
