//! `?lesson=reduction`: a workgroup sums its values in workgroup memory by halving strides,
//! a barrier after every step. The seed's trace: [3, 1, 4, 1, 5, 9, 2, 6], strides 4, 2, 1 → 31.
//! Then a large array two ways: a tree per workgroup and partial sums, against every
//! invocation adding into one counter with atomicAdd.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_reduction.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::Machine;
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/reduction/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const TRACE: Kernel = crate::kernel!("reduction", "reduction_trace.wgsl");
    pub const TREE: Kernel = crate::kernel!("reduction", "reduction_tree.wgsl");
    pub const ATOMIC: Kernel = crate::kernel!("reduction", "reduction_atomic.wgsl");
    pub const TREE_ATOMIC: Kernel = crate::kernel!("reduction", "reduction_tree_atomic.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[TRACE, TREE, ATOMIC, TREE_ATOMIC];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "reduction",
    title: "Summing in a tree",
    summary: "Halve the stride, add, wait at the barrier: 8 values to 31 in three steps, then a million values against atomicAdd.",
    chapter: super::Chapter::Barriers,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Tree>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::ReductionLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("reduction", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-reduction.json", text: measured::H100_REDUCTION, schema: Some(measured::SCHEMA) }],
};

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// The seed's eight values, then more digits of π for wider workgroups.
pub const VALUES: [u32; 16] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];

/// Where the model keeps `input` (one cell per thread) and `cells` (the workgroup memory).
pub const INPUT: usize = 0;
pub fn cells_base(threads: usize) -> usize {
    INPUT + threads
}

/// The lesson has one program; its model is the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tree;

impl Tree {
    pub fn kernel() -> Kernel {
        kernels::TRACE
    }

    /// The traced kernel itself, lowered from its WGSL: `threads` invocations in one workgroup
    /// summing [`VALUES`] (its snapshots of each step are stepped, not drawn).
    pub fn machine(threads: usize) -> Machine {
        let input = (0..threads).map(|t| VALUES[t % VALUES.len()]).collect();
        let setup = kernel::one_workgroup(threads, vec![((0, 0), input), ((0, 1), vec![0; 8 * threads])]);
        let show = Show { memory: &["input", "cells"], workgroup_words: threads, values: &["value", "stride", "other"], ..Show::default() };
        kernel::machine_or_empty(&crate::stepped::REDUCTION_TRACE, kernels::TRACE.source(), &setup, show)
    }
}

impl crate::site::settings::LessonVariant for Tree {
    fn try_this(self) -> &'static str {
        words::TRY
    }

    const NAMES: &'static [&'static str] = &[];
    const DEFAULT: Tree = Tree;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 8;
    /// Enough values for the timings to mean something, few enough that a software adapter
    /// (whose barriers are slow: seconds per million values) finishes in moments.
    const GPU_DEFAULT: crate::gpu::params::GpuParams = crate::gpu::params::GpuParams { invocations: 1 << 16, workgroup_size: 64 };

    fn name(self) -> &'static str {
        "tree"
    }

    fn from_name(_: &str) -> Option<Self> {
        Some(Tree)
    }

    fn machine(self, threads: usize) -> Machine {
        Tree::machine(threads)
    }
}

pub type ReductionSettings = crate::site::settings::LessonSettings<Tree>;

/// The workgroup memory after loading and after each stride, computed directly: the table
/// the model and the GPU must both produce.
pub fn trace(values: &[u32]) -> Vec<Vec<u32>> {
    let mut cells = values.to_vec();
    let mut table = vec![cells.clone()];
    let mut stride = values.len() / 2;
    while stride > 0 {
        for id in 0..stride {
            cells[id] += cells[id + stride];
        }
        table.push(cells.clone());
        stride /= 2;
    }
    table
}

/// The strides the tree takes for a workgroup of `n`.
pub fn strides(n: usize) -> Vec<usize> {
    std::iter::successors(Some(n / 2), |s| Some(s / 2)).take_while(|&s| s > 0).collect()
}

/// Input `i` of the large array: a digit, so a million of them still fit a u32 sum.
pub fn large_value(i: u32) -> u32 {
    (crate::model::splitmix64(u64::from(i) ^ 0x5E_ED) % 10) as u32
}

pub fn large_sum(n: u32) -> u64 {
    (0..n).map(|i| u64::from(large_value(i))).sum()
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    vec![(Tree::machine(8).program().as_ref().clone(), Tree::kernel())]
}
