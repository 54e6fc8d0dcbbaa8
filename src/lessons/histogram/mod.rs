//! `?lesson=histogram`: counting values into bins, three ways. A plain `+=` loses counts when
//! two invocations hit one bin at once; `atomicAdd` on the bins in the storage buffer is right
//! but every add to a busy bin waits its turn; bins private to each workgroup (in workgroup
//! memory) take the contention inside the workgroup, then one atomic per bin per workgroup
//! merges them.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_histogram.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::Machine;
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/histogram/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const PLAIN: Kernel = crate::kernel!("histogram", "histogram_plain.wgsl");
    pub const ATOMIC: Kernel = crate::kernel!("histogram", "histogram_atomic.wgsl");
    pub const PRIVATE: Kernel = crate::kernel!("histogram", "histogram_private.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[PLAIN, ATOMIC, PRIVATE];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "histogram",
    title: "Histograms and contention",
    summary: "Counting into 256 bins: plain += loses counts, atomicAdd keeps them all, private bins per workgroup merge once. Timed, and swept over how many bins the data hits.",
    chapter: super::Chapter::Contention,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<HistogramVariant>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::HistogramLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("histogram", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-histogram.json", text: measured::H100_HISTOGRAM, schema: Some(measured::SCHEMA) }],
};

/// The model's bins, and its threads (at least one per bin, for the merge).
pub const MODEL_BINS: usize = 4;
pub const MODEL_THREADS: RangeInclusive<usize> = MODEL_BINS..=12;

/// Where the model keeps `input` (one value per thread), then `bins`, then the workgroup's
/// private bins.
pub const INPUT: usize = 0;
pub fn bins_base(threads: usize) -> usize {
    INPUT + threads
}
pub fn private_base(threads: usize) -> usize {
    bins_base(threads) + MODEL_BINS
}

/// The model's input: a skewed little data set, so some bins are busy and one is empty.
pub fn model_input(t: usize) -> i64 {
    [0, 1, 0, 2, 0, 1, 0, 2, 0, 0, 1, 0][t % 12]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HistogramVariant {
    /// `bins[v] = bins[v] + 1`: load, add, store.
    Plain,
    /// `atomicAdd(&bins[v], 1)` on the storage buffer.
    Atomic,
    /// `atomicAdd(&local[v], 1)` in workgroup memory, a barrier, then one atomicAdd per bin.
    Private,
}

impl HistogramVariant {
    pub const ALL: [HistogramVariant; 3] = [HistogramVariant::Plain, HistogramVariant::Atomic, HistogramVariant::Private];

    pub fn kernel(self) -> Kernel {
        match self {
            HistogramVariant::Plain => kernels::PLAIN,
            HistogramVariant::Atomic => kernels::ATOMIC,
            HistogramVariant::Private => kernels::PRIVATE,
        }
    }

    /// Whether the variant promises an exact histogram.
    pub fn exact(self) -> bool {
        self != HistogramVariant::Plain
    }

    /// The kernel's own program, lowered from its WGSL when the site was built.
    pub fn lowered(self) -> &'static stepper::Program {
        match self {
            HistogramVariant::Plain => &crate::stepped::HISTOGRAM_PLAIN,
            HistogramVariant::Atomic => &crate::stepped::HISTOGRAM_ATOMIC,
            HistogramVariant::Private => &crate::stepped::HISTOGRAM_PRIVATE,
        }
    }

    /// The kernel itself: `threads` invocations in one workgroup, one value each from
    /// [`model_input`] (`params.stride` is the thread count, so each invocation's loop finds one
    /// value in range), counted into [`MODEL_BINS`] bins.
    pub fn machine(self, threads: usize) -> Machine {
        let n = threads as u32;
        let input = (0..threads).map(|t| model_input(t) as u32).collect();
        let setup = kernel::one_workgroup(threads, vec![((0, 0), input), ((0, 1), vec![0; MODEL_BINS]), ((0, 2), vec![n, n])]);
        let show = Show { memory: &["input", "bins", "local"], workgroup_words: MODEL_BINS, values: &["bin", "mine"], ..Show::default() };
        kernel::machine_or_empty(self.lowered(), self.kernel().source(), &setup, show)
    }
}

impl crate::site::settings::LessonVariant for HistogramVariant {
    fn try_this(self) -> &'static str {
        match self.name() {
            "plain" => words::TRY_PLAIN,
            "atomic" => words::TRY_ATOMIC,
            "private" => words::TRY_PRIVATE,
            _ => "",
        }
    }

    const NAMES: &'static [&'static str] = &["plain", "atomic", "private"];
    const DEFAULT: HistogramVariant = HistogramVariant::Plain;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 6;
    /// A million values: enough work for the timings, a moment on a software adapter.
    const GPU_DEFAULT: crate::gpu::params::GpuParams = crate::gpu::params::GpuParams { invocations: 1 << 20, workgroup_size: 256 };

    fn name(self) -> &'static str {
        match self {
            HistogramVariant::Plain => "plain",
            HistogramVariant::Atomic => "atomic",
            HistogramVariant::Private => "private",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        HistogramVariant::machine(self, threads)
    }
}

pub type HistogramSettings = crate::site::settings::LessonSettings<HistogramVariant>;

/// The GPU's bins.
pub const BINS: usize = 256;
/// Values each invocation counts: the private variant's merge (256 atomics per workgroup)
/// pays off only when a workgroup counts many more values than that.
pub const PER_INVOCATION: u32 = 16;
/// The sweep's numbers of distinct bins.
pub const DISTINCT: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// The size sweep's data sizes: 4,096 values (16 workgroups of 256 at 16 values each) to 1M.
pub const SIZES: [u32; 5] = [1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20];

/// Value `i` of a data set that hits `distinct` bins (1 to 256), spread over them evenly.
pub fn value(i: u32, distinct: u32) -> u32 {
    (crate::model::splitmix64(u64::from(i)) % u64::from(distinct.clamp(1, BINS as u32))) as u32
}

/// The histogram of `n` values hitting `distinct` bins, counted on the CPU.
pub fn cpu_histogram(n: u32, distinct: u32) -> Vec<u32> {
    let mut bins = vec![0u32; BINS];
    for i in 0..n {
        bins[value(i, distinct) as usize] += 1;
    }
    bins
}

/// What a run's bins say against the CPU's histogram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistogramCheck {
    /// The bins' sum, and what it must be: repeats × values.
    pub sum: u64,
    pub expected_sum: u64,
    /// Every bin equals repeats × the CPU's count.
    pub exact: bool,
    /// Every bin lies where a run can put it: 0 where no value falls, else from 1 (the last
    /// store of a plain `+=` keeps at least one count) to repeats × the CPU's count.
    pub possible: bool,
}

impl HistogramCheck {
    pub fn lost(&self) -> u64 {
        self.expected_sum.saturating_sub(self.sum)
    }
}

pub fn check(n: u32, distinct: u32, repeats: u32, bins: &[u32]) -> HistogramCheck {
    let want = cpu_histogram(n, distinct);
    let scaled = |b: usize| u64::from(want[b]) * u64::from(repeats);
    let got = |b: usize| u64::from(bins.get(b).copied().unwrap_or(0));
    HistogramCheck {
        sum: (0..BINS).map(got).sum(),
        expected_sum: u64::from(n) * u64::from(repeats),
        exact: bins.len() == BINS && (0..BINS).all(|b| got(b) == scaled(b)),
        possible: bins.len() == BINS && (0..BINS).all(|b| if scaled(b) == 0 { got(b) == 0 } else { (1..=scaled(b)).contains(&got(b)) }),
    }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    HistogramVariant::ALL.into_iter().map(|v| (v.machine(6).program().as_ref().clone(), v.kernel())).collect()
}
