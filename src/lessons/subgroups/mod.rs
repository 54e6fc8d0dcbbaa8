//! `?lesson=subgroups`: what the invocations of one subgroup (a warp, on NVIDIA) share, and the
//! lockstep nobody promised. The model steps a workgroup in subgroups of a size the reader
//! picks: `subgroupAdd`, the same inside an `if` (only the active lanes take part), a ballot
//! that compacts with one `atomicAdd` per subgroup, a shuffle-xor butterfly, and neighbours
//! reading each other's workgroup memory with no barrier. The reader's GPU runs each kernel,
//! reads back its subgroup size and layout, counts the stale reads lockstep folklore says cannot
//! happen, and times three reductions (a tree with a barrier per level, `subgroupAdd` with one
//! barrier, the older unrolled "last warp without a barrier") and the two compactions.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_subgroups.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
pub use crate::model::mask_text;
use crate::model::kernel::{self, Show};
use crate::model::{Machine, MemoryGrid};
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/subgroups/`. All but the tree reduction
/// and the last-warp one need the adapter's `subgroups` feature.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const ADD: Kernel = crate::kernel!("subgroups", "subgroups_add.wgsl");
    pub const DIVERGENT: Kernel = crate::kernel!("subgroups", "subgroups_divergent.wgsl");
    pub const BALLOT: Kernel = crate::kernel!("subgroups", "subgroups_ballot.wgsl");
    pub const BUTTERFLY: Kernel = crate::kernel!("subgroups", "subgroups_butterfly.wgsl");
    pub const NEIGHBOUR: Kernel = crate::kernel!("subgroups", "subgroups_neighbour.wgsl");
    pub const REDUCE_TREE: Kernel = crate::kernel!("subgroups", "subgroups_reduce_tree.wgsl");
    pub const REDUCE_SUBGROUP: Kernel = crate::kernel!("subgroups", "subgroups_reduce_subgroup.wgsl");
    pub const REDUCE_LAST_WARP: Kernel = crate::kernel!("subgroups", "subgroups_reduce_last_warp.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[ADD, DIVERGENT, BALLOT, BUTTERFLY, NEIGHBOUR, REDUCE_TREE, REDUCE_SUBGROUP, REDUCE_LAST_WARP];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "subgroups",
    title: "Subgroups: what a warp shares, and the lockstep nobody promised",
    summary: "subgroupAdd, a ballot and a shuffle butterfly stepped lane by lane, the same inside an if, neighbours read with no barrier, and three reductions timed on your GPU.",
    chapter: super::Chapter::Barriers,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<SubgroupModel>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::SubgroupsLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("subgroups", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-subgroups.json", text: measured::H100_SUBGROUPS, schema: Some(measured::SCHEMA) }],
};

/// The model's input, one value per thread: digits of π, as the reduction and scan lessons use.
pub const VALUES: [u32; 16] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];

/// A value is kept (by the `if` and the ballot) at or above this; the kernels use the same.
pub const KEEP: u32 = 4;

pub const MODEL_THREADS: RangeInclusive<usize> = 4..=16;

/// The subgroup sizes the reader can pick (the lesson's text says who uses each).
pub const SIZES: [usize; 3] = [4, 8, 32];

/// Which subgroup program the model steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupStep {
    /// `total = subgroupAdd(value)`.
    Add,
    /// The same inside `if value >= 4`: only the lanes that took the branch add.
    Divergent,
    /// Keep-flags, a ballot, each lane's rank among the kept, one reservation per subgroup.
    Ballot,
    /// `subgroupShuffleXor` half the subgroup away, then a quarter … down to the next lane.
    Butterfly,
    /// Write your cell, read the next lane's with no barrier.
    NoBarrier,
}

impl SubgroupStep {
    pub const ALL: [SubgroupStep; 5] = [SubgroupStep::Add, SubgroupStep::Divergent, SubgroupStep::Ballot, SubgroupStep::Butterfly, SubgroupStep::NoBarrier];

    pub fn name(self) -> &'static str {
        match self {
            SubgroupStep::Add => "add",
            SubgroupStep::Divergent => "divergent",
            SubgroupStep::Ballot => "ballot",
            SubgroupStep::Butterfly => "butterfly",
            SubgroupStep::NoBarrier => "no-barrier",
        }
    }

    pub fn kernel(self) -> Kernel {
        match self {
            SubgroupStep::Add => kernels::ADD,
            SubgroupStep::Divergent => kernels::DIVERGENT,
            SubgroupStep::Ballot => kernels::BALLOT,
            SubgroupStep::Butterfly => kernels::BUTTERFLY,
            SubgroupStep::NoBarrier => kernels::NEIGHBOUR,
        }
    }
}

/// The model's choice: a program and the subgroup size it runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubgroupModel {
    pub step: SubgroupStep,
    pub size: usize,
}

/// The values each lane shows, by index: every kernel shows its value first, then what it
/// names: `total` (add, divergent), `keep`, `ballot`, `rank`, `base` (ballot), `mask` (the
/// butterfly's lane distance) and `other`, `seen` (the neighbour read).
pub const VALUE: usize = 0;
pub const TOTAL: usize = 1;
pub const MASK: usize = 2;
pub const DISTANCE: usize = 1;
pub const SEEN: usize = 1;

/// Where the model draws its memory: `input` (one cell per thread) first, then the rest.
pub const INPUT: usize = 0;

/// Words of each record: the total, the subgroup's size, the lane and the subgroup's first
/// invocation.
pub const RECORD_WORDS: usize = 4;

impl SubgroupStep {
    /// The kernel's own program, lowered from its WGSL when the site was built.
    pub fn lowered(self) -> &'static stepper::Program {
        match self {
            SubgroupStep::Add => &crate::stepped::SUBGROUPS_ADD,
            SubgroupStep::Divergent => &crate::stepped::SUBGROUPS_DIVERGENT,
            SubgroupStep::Ballot => &crate::stepped::SUBGROUPS_BALLOT,
            SubgroupStep::Butterfly => &crate::stepped::SUBGROUPS_BUTTERFLY,
            SubgroupStep::NoBarrier => &crate::stepped::SUBGROUPS_NEIGHBOUR,
        }
    }

    /// Which of the lesson's kernels `m` steps, if any.
    pub fn of(m: &Machine) -> Option<SubgroupStep> {
        let kernel = m.program().lowered.as_ref()?.kernel;
        Self::ALL.into_iter().find(|s| std::ptr::eq(s.lowered(), kernel))
    }
}

impl SubgroupModel {
    /// The kernel itself, `threads` invocations in one workgroup in subgroups of `size`, on the
    /// model's values.
    pub fn machine(self, threads: usize) -> Machine {
        let n = threads as u32;
        let input: Vec<u32> = model_values(threads);
        let (buffers, show) = match self.step {
            SubgroupStep::Add | SubgroupStep::Divergent | SubgroupStep::Butterfly => {
                let values: &'static [&'static str] = if self.step == SubgroupStep::Butterfly { &["value", "mask", "other"] } else { &["value", "total"] };
                (vec![((0, 0), input), ((0, 1), vec![0; RECORD_WORDS * threads]), ((0, 2), vec![n])], Show { memory: &["input", "records"], values, ..Show::default() })
            }
            SubgroupStep::Ballot => (
                vec![((0, 0), input), ((0, 1), vec![0; threads]), ((0, 3), vec![n, 0])],
                Show { memory: &["input", "counts", "output"], values: &["value", "keep", "ballot", "rank", "base"], ..Show::default() },
            ),
            SubgroupStep::NoBarrier => {
                (vec![((0, 1), vec![0])], Show { memory: &["cells", "stats"], workgroup_words: threads, values: &["theirs", "seen"], ..Show::default() })
            }
        };
        let mut setup = kernel::one_workgroup(threads, buffers);
        setup.subgroup_size = self.size as u32;
        let lanes = self.size.min(threads);
        let records = matches!(self.step, SubgroupStep::Add | SubgroupStep::Divergent | SubgroupStep::Butterfly);
        kernel::machine_or_empty(self.step.lowered(), self.step.kernel().source(), &setup, show).with_subgroup_size(self.size).with_program(|p| {
            p.masks = &["ballot"];
            p.mask_lanes = lanes;
            // A record a row: its total, the subgroup's size, the lane, the subgroup's first.
            if records {
                p.grids.push(MemoryGrid { name: "records (total, size, lane, first)", start: INPUT + threads, rows: threads, cols: RECORD_WORDS });
            }
        })
    }
}

/// The model's input for `threads` threads.
pub fn model_values(threads: usize) -> Vec<u32> {
    (0..threads).map(|t| VALUES[t % VALUES.len()]).collect()
}

impl crate::site::settings::LessonVariant for SubgroupModel {
    fn try_this(self) -> &'static str {
        match self.step {
            SubgroupStep::Add => words::TRY_ADD,
            SubgroupStep::Divergent => words::TRY_DIVERGENT,
            SubgroupStep::Ballot => words::TRY_BALLOT,
            SubgroupStep::Butterfly => words::TRY_BUTTERFLY,
            SubgroupStep::NoBarrier => words::TRY_NO_BARRIER,
        }
    }

    const NAMES: &'static [&'static str] = &["add", "divergent", "ballot", "butterfly", "no-barrier"];
    const DEFAULT: SubgroupModel = SubgroupModel { step: SubgroupStep::Add, size: 4 };
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 8;
    /// 4,096 values in workgroups of 64: a few subgroups per workgroup on every adapter.
    const GPU_DEFAULT: GpuParams = GpuParams { invocations: 4096, workgroup_size: 64 };

    fn name(self) -> &'static str {
        self.step.name()
    }

    fn from_name(name: &str) -> Option<Self> {
        SubgroupStep::ALL.into_iter().find(|s| s.name() == name).map(|step| SubgroupModel { step, size: Self::DEFAULT.size })
    }

    fn machine(self, threads: usize) -> Machine {
        SubgroupModel::machine(self, threads)
    }

    fn read_extra(&mut self, get: &dyn Fn(&str) -> Option<String>, problems: &mut Vec<String>) -> Option<usize> {
        if let Some(v) = get("subgroup") {
            match v.trim().parse::<usize>().ok().filter(|s| SIZES.contains(s)) {
                Some(size) => self.size = size,
                None => problems.push(format!(
                    "subgroup={} was ignored: the model's subgroups have 4, 8 or 32 lanes",
                    crate::site::param::quote(&v)
                )),
            }
        }
        None
    }

    fn extra_pairs(&self, _threads: usize) -> Vec<(&'static str, String)> {
        vec![("subgroup", self.size.to_string())]
    }
}

/// Input `i` of every GPU run: the model's digits, again and again.
pub fn gpu_value(i: u32) -> u32 {
    VALUES[i as usize % VALUES.len()]
}

/// What one invocation of the add, divergent or butterfly kernel wrote: its sum, the subgroup
/// size and its lane as the GPU reported them, and the index of its subgroup's first invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub total: u32,
    pub size: u32,
    pub lane: u32,
    pub first: u32,
}

impl Record {
    pub const WORDS: usize = 4;

    pub fn parse(words: &[u32]) -> Vec<Record> {
        words.chunks_exact(Self::WORDS).map(|w| Record { total: w[0], size: w[1], lane: w[2], first: w[3] }).collect()
    }
}

/// The subgroups the GPU formed, as its records show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every `subgroup_size` an invocation reported (one value on every GPU seen so far).
    pub sizes: Vec<u32>,
    pub subgroups: u32,
    /// Subgroups with as many members as their size.
    pub full: u32,
    /// Whether every subgroup is a run of consecutive invocations, lanes 0, 1, 2 … in order: the
    /// layout the next-subgroup neighbour test assumes.
    pub consecutive: bool,
}

/// The members of each subgroup, keyed by its first invocation, in order.
fn members(records: &[Record]) -> std::collections::BTreeMap<u32, Vec<usize>> {
    let mut groups: std::collections::BTreeMap<u32, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        groups.entry(r.first).or_default().push(i);
    }
    groups
}

pub fn layout(records: &[Record]) -> Layout {
    let mut sizes: Vec<u32> = records.iter().map(|r| r.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let groups = members(records);
    let full = groups.values().filter(|m| m.len() as u32 == records[m[0]].size).count() as u32;
    let consecutive = groups.iter().all(|(&first, m)| m.iter().enumerate().all(|(k, &i)| i == first as usize + k && records[i].lane == k as u32));
    Layout { sizes, subgroups: groups.len() as u32, full, consecutive }
}

/// Sums checked against the CPU's, subgroup by subgroup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SumCheck {
    pub checked: u32,
    pub wrong: u32,
}

/// Every invocation's `total` against the sum of its subgroup's values; with `full_only`, only
/// in full subgroups (a butterfly reads lanes that a partial one lacks).
pub fn check_sums(values: &[u32], records: &[Record], full_only: bool) -> SumCheck {
    let mut out = SumCheck::default();
    for m in members(records).values() {
        if full_only && m.len() as u32 != records[m[0]].size {
            continue;
        }
        let sum = m.iter().fold(0u32, |s, &i| s.wrapping_add(values[i]));
        out.checked += m.len() as u32;
        out.wrong += m.iter().filter(|&&i| records[i].total != sum).count() as u32;
    }
    out
}

/// What `subgroupAdd` inside the `if` gave the lanes that took it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DivergentCheck {
    /// Lanes that took the branch.
    pub active: u32,
    /// Of those, lanes whose sum covered every kept value of their subgroup.
    pub whole: u32,
    /// Lanes whose sum was below their own value or above the subgroup's kept values: no set
    /// of active lanes gives that.
    pub impossible: u32,
    /// Lanes that skipped the branch and still hold something other than 0.
    pub skipped_wrong: u32,
}

pub fn check_divergent(values: &[u32], records: &[Record]) -> DivergentCheck {
    let mut out = DivergentCheck::default();
    for m in members(records).values() {
        let kept_sum = m.iter().filter(|&&i| values[i] >= KEEP).fold(0u32, |s, &i| s.wrapping_add(values[i]));
        for &i in m {
            let total = records[i].total;
            if values[i] < KEEP {
                out.skipped_wrong += u32::from(total != 0);
                continue;
            }
            out.active += 1;
            out.whole += u32::from(total == kept_sum);
            out.impossible += u32::from(total < values[i] || total > kept_sum);
        }
    }
    out
}

/// The neighbour test's counts, one set for the next lane of the same subgroup and one for the
/// same lane of the next subgroup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NeighbourRun {
    pub fresh: u32,
    pub stale: u32,
    pub impossible: u32,
}

/// A compaction's outcome: how many values it kept, how many `atomicAdd`s reached the counter,
/// whether the output holds exactly the CPU's kept values, and its GPU time over the repeats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompactRun {
    pub kept: u32,
    pub atomics: u32,
    pub same_values: bool,
    pub gpu_ns: Option<f64>,
}

/// The three reductions, in the order the page shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceWay {
    Tree,
    Subgroup,
    LastWarp,
}

impl ReduceWay {
    pub const ALL: [ReduceWay; 3] = [ReduceWay::Tree, ReduceWay::Subgroup, ReduceWay::LastWarp];

    pub fn name(self) -> &'static str {
        match self {
            ReduceWay::Tree => "tree",
            ReduceWay::Subgroup => "subgroup-add",
            ReduceWay::LastWarp => "last-warp-no-barrier",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ReduceWay::Tree => "tree, a barrier per level",
            ReduceWay::Subgroup => "subgroupAdd, one barrier",
            ReduceWay::LastWarp => "last 32 lanes without a barrier",
        }
    }

    pub fn kernel(self) -> Kernel {
        match self {
            ReduceWay::Tree => kernels::REDUCE_TREE,
            ReduceWay::Subgroup => kernels::REDUCE_SUBGROUP,
            ReduceWay::LastWarp => kernels::REDUCE_LAST_WARP,
        }
    }

    /// Whether WGSL promises every workgroup's sum exact.
    pub fn promised(self) -> bool {
        self != ReduceWay::LastWarp
    }
}

/// One reduction: workgroups whose sum differed from the CPU's, and the GPU time over the
/// repeats (the whole timed pass).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReduceRun {
    pub way: ReduceWay,
    pub workgroups: u32,
    pub wrong: u32,
    pub gpu_ns: Option<f64>,
}

/// Each workgroup's sum of `values`, as the reduction kernels must leave it.
pub fn workgroup_sums(values: &[u32], width: usize) -> Vec<u32> {
    values.chunks(width.max(1)).map(|c| c.iter().fold(0u32, |s, &v| s.wrapping_add(v))).collect()
}

/// Everything one run of the lesson on a GPU read back.
#[derive(Clone, Debug, PartialEq)]
pub struct SubgroupsRun {
    pub layout: Layout,
    pub add: SumCheck,
    pub butterfly: SumCheck,
    pub divergent: DivergentCheck,
    /// The next lane of the same subgroup, then the next subgroup.
    pub neighbours: [NeighbourRun; 2],
    /// The ballot's compaction, then one `atomicAdd` per value.
    pub compactions: [CompactRun; 2],
    pub reductions: Vec<ReduceRun>,
    /// How many times each timed way ran inside its timed pass.
    pub repeats: u32,
    /// The values the CPU keeps.
    pub cpu_kept: u32,
    /// The first subgroup's records from the add kernel, as the page shows them.
    pub first_records: Vec<Record>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgroupsCheck {
    /// Every count adds up: each neighbour read fresh or stale, nothing impossible.
    pub consistent: bool,
    /// Everything WGSL promises held: exact sums, the kept values, the bounds of the divergent
    /// sums, the two promised reductions.
    pub promise_held: bool,
}

pub fn check(run: &SubgroupsRun, params: GpuParams) -> SubgroupsCheck {
    let n = params.invocations;
    let consistent = run.neighbours.iter().all(|r| r.impossible == 0 && r.fresh + r.stale == n) && run.divergent.impossible == 0;
    let promise_held = run.add.wrong == 0
        && run.add.checked == n
        && run.butterfly.wrong == 0
        && run.divergent.skipped_wrong == 0
        && run.divergent.impossible == 0
        && run.compactions.iter().all(|c| c.same_values && c.kept == run.cpu_kept)
        && run.compactions[1].atomics == run.cpu_kept
        && run.reductions.iter().filter(|r| r.way.promised()).all(|r| r.wrong == 0);
    SubgroupsCheck { consistent, promise_held }
}

/// Why `params` cannot run the lesson's kernels, if they cannot: every workgroup full, so that
/// each invocation has its neighbours, and wide enough for the last-warp reduction's 32 lanes.
pub fn layout_problem(params: GpuParams) -> Option<String> {
    let w = params.workgroup_size;
    if !(64..=1024).contains(&w) || !w.is_power_of_two() {
        return Some(format!("the workgroup must be a power of two from 64 to 1,024 (the last-warp reduction takes 32 lanes of it), not {w}"));
    }
    if params.invocations % w != 0 {
        return Some(format!(
            "every workgroup must be full, so that each invocation has its neighbours: make the invocations ({}) a multiple of the workgroup size ({w})",
            params.invocations
        ));
    }
    None
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    SubgroupStep::ALL.into_iter().map(|step| (SubgroupModel { step, size: 4 }.machine(8).program().as_ref().clone(), step.kernel())).collect()
}
