//! `?lesson=cas-max`: WGSL has no float atomics, so an atomic maximum of `f32` values is built
//! from `bitcast` and a compare-exchange retry loop. Each failed exchange is a retry: the
//! contention made visible.

pub mod export;
pub mod gpu;
pub mod measured;
pub mod sum;
#[cfg(not(target_arch = "wasm32"))]
pub mod sum_report;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_cas_max.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::{bits_of, splitmix64, Instr, Line, Machine, Program};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/cas-max/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const CAS_MAX: Kernel = crate::kernel!("cas-max", "cas_max.wgsl");
    /// The same loop adding floats: WGSL has no float atomicAdd either.
    pub const CAS_ADD: Kernel = crate::kernel!("cas-max", "cas_add.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[CAS_MAX, CAS_ADD];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "cas-max",
    title: "A float maximum from compare-exchange",
    summary: "No float atomics in WGSL: build atomicMax for f32 from bitcast and a retry loop, and count the retries.",
    chapter: super::Chapter::Atomics,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<CasInputs>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::CasMaxLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("cas-max", report::main), ("cas-add", sum_report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[
        crate::data::measured::MeasuredFile { file: "h100-cas-max.json", text: measured::H100_CAS, schema: Some(measured::SCHEMA) },
        crate::data::measured::MeasuredFile { file: "h100-cas-add.json", text: measured::H100_CAS_ADD, schema: Some(measured::SUM_SCHEMA) },
    ],
};

/// The cell that holds the best value so far.
pub const BEST: usize = 0;
/// Inputs start here (one per thread); each thread's retry count follows them.
pub const INPUT: usize = 1;
/// Registers.
pub const VALUE: usize = 0;
pub const OLD: usize = 1;
pub const EXCHANGED: usize = 2;
pub const RETRIES: usize = 3;

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// Where `best` starts, in the model as in the kernel: −∞'s bits, below every input.
pub const MODEL_START: i64 = 0xFF80_0000;

/// Which inputs the kernel gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CasInputs {
    /// Values from −625 to 625 in steps of 1/16, both signs.
    Mixed,
    /// Only values ≤ 0, with −0.0 and +0.0 among them: the maximum is +0.0, which an
    /// integer comparison of the bits would get wrong (negative floats' bits are huge). Inputs
    /// 0 and 1 are −0.0 and +0.0, so that the model has both at every thread count.
    NonPositive,
    /// The mixed inputs with a NaN every fifth: the loop leaves it out, by its bits.
    WithNan,
    /// Not a maximum but a sum, by the same loop: 16,777,216.0 (2^24) and ones, whose total
    /// depends on the order the additions were served.
    Sum,
}

impl CasInputs {
    /// Input `i` of a run, the same in the model's source and on the GPU.
    pub fn value(self, i: u32) -> f32 {
        let r = splitmix64(u64::from(i) ^ 0xCA5_3A7);
        let magnitude = (r % 10_001) as f32 / 16.0;
        match self {
            CasInputs::Mixed if r >> 63 == 1 => -magnitude,
            CasInputs::Mixed => magnitude,
            // −0.0 before +0.0: one at a time, the −0.0 is in best first, and only the float
            // comparison's rule that +0.0 is above −0.0 lets the later +0.0 replace it.
            CasInputs::NonPositive if i == 0 || i % 7 == 3 => -0.0,
            CasInputs::NonPositive if i == 1 || i % 29 == 11 => 0.0,
            CasInputs::NonPositive => -magnitude - 1.0,
            CasInputs::WithNan if i % 5 == 2 => f32::NAN,
            CasInputs::WithNan => CasInputs::Mixed.value(i),
            CasInputs::Sum => sum::value(i),
        }
    }

    /// The model holds the same inputs as the kernel, as their bits.
    pub fn model_value(self, i: u32) -> i64 {
        bits_of(self.value(i))
    }

    /// Written by hand: its threads are the kernel's invocations and could step the kernel itself,
    /// which this lesson has not moved to yet (see docs/stepper.md).
    pub fn program(threads: usize) -> Program {
        let retries = INPUT + threads;
        let mut memory_names = vec!["best".to_owned()];
        memory_names.extend((0..threads).map(|t| format!("input[{t}]")));
        memory_names.extend((0..threads).map(|t| format!("retries[{t}]")));
        let (test, done) = (3, 8);
        Program {
            lines: vec![
                Line { instr: Instr::LoadOwn { array: "input", base: INPUT, reg: VALUE }, marker: "load-value" },
                Line { instr: Instr::Load { reg: OLD, addr: BEST }, marker: "load-old" },
                Line { instr: Instr::BranchIfNan { reg: VALUE, target: done }, marker: "nan" },
                Line { instr: Instr::BranchUnlessAbove { a: VALUE, b: OLD, target: done }, marker: "test" },
                Line { instr: Instr::CompareExchange { addr: BEST, expected: OLD, desired: VALUE, old: OLD, exchanged: EXCHANGED }, marker: "cas" },
                Line { instr: Instr::BranchIfNonZero { reg: EXCHANGED, target: done }, marker: "exchanged" },
                Line { instr: Instr::AddImm { reg: RETRIES, imm: 1 }, marker: "retry" },
                Line { instr: Instr::Jump { target: test }, marker: "continue" },
                Line { instr: Instr::StoreOwn { array: "retries", base: retries, reg: RETRIES }, marker: "record" },
            ],
            memory_names,
            register_names: vec!["value", "old", "exchanged", "retries"],
            grids: Vec::new(),
            workgroup: &[],
            floats: &["value", "old", "best", "input"], packed: &[], masks: &[], mask_lanes: 0,
            spans: Vec::new(), lowered: None,
        }
    }

    pub fn machine(self, threads: usize) -> Machine {
        if self == CasInputs::Sum {
            return sum::machine(threads);
        }
        let mut memory = vec![0i64; INPUT + 2 * threads];
        memory[BEST] = MODEL_START;
        for t in 0..threads {
            memory[INPUT + t] = self.model_value(t as u32);
        }
        Machine::new(Arc::new(Self::program(threads)), threads, memory)
    }

    /// The maximum's kernel.
    pub fn kernel() -> Kernel {
        kernels::CAS_MAX
    }

    /// The kernel these inputs run: the sum's for [`CasInputs::Sum`], else the maximum's.
    pub fn kernel_of(self) -> Kernel {
        if self == CasInputs::Sum {
            kernels::CAS_ADD
        } else {
            kernels::CAS_MAX
        }
    }
}

impl crate::site::settings::LessonVariant for CasInputs {
    fn try_this(self) -> &'static str {
        match self.name() {
            "mixed" => words::TRY_MIXED,
            "non-positive" => words::TRY_NON_POSITIVE,
            "with-nan" => words::TRY_WITH_NAN,
            "float-sum" => words::TRY_FLOAT_SUM,
            _ => "",
        }
    }

    const NAMES: &'static [&'static str] = &["mixed", "non-positive", "with-nan", "float-sum"];
    const DEFAULT: CasInputs = CasInputs::Mixed;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        match self {
            CasInputs::Mixed => "mixed",
            CasInputs::NonPositive => "non-positive",
            CasInputs::WithNan => "with-nan",
            CasInputs::Sum => "float-sum",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        match name {
            "mixed" => Some(CasInputs::Mixed),
            "non-positive" => Some(CasInputs::NonPositive),
            "with-nan" => Some(CasInputs::WithNan),
            "float-sum" => Some(CasInputs::Sum),
            _ => None,
        }
    }

    fn machine(self, threads: usize) -> Machine {
        CasInputs::machine(self, threads)
    }
}

pub type CasSettings = crate::site::settings::LessonSettings<CasInputs>;

/// The kernel's `above`, the model's too.
pub use crate::model::above;

/// The true maximum of the first `n` inputs under [`above`], computed on the CPU.
pub fn true_max(inputs: CasInputs, n: u32) -> f32 {
    (0..n).map(|i| inputs.value(i)).fold(f32::NEG_INFINITY, |m, v| if above(v, m) { v } else { m })
}

/// What a GPU run produced against the truth.
#[derive(Clone, Debug, PartialEq)]
pub struct CasCheck {
    pub expected: f32,
    pub observed: f32,
    /// Same bits: the right value and the right sign of zero.
    pub exact: bool,
    pub total_retries: u64,
    pub most_retries: u32,
    /// `(retries, invocations that needed that many)`, ascending.
    pub histogram: Vec<(u32, u32)>,
}

pub fn check(inputs: CasInputs, params: GpuParams, best_bits: u32, retries: &[u32]) -> CasCheck {
    let expected = true_max(inputs, params.invocations);
    let observed = f32::from_bits(best_bits);
    let mut counts = std::collections::BTreeMap::new();
    for &r in retries {
        *counts.entry(r).or_insert(0u32) += 1;
    }
    CasCheck {
        expected,
        observed,
        exact: expected.to_bits() == best_bits,
        total_retries: retries.iter().map(|&r| u64::from(r)).sum(),
        most_retries: retries.iter().copied().max().unwrap_or(0),
        histogram: counts.into_iter().collect(),
    }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    vec![(CasInputs::program(4), CasInputs::kernel()), (sum::program(4), kernels::CAS_ADD)]
}
