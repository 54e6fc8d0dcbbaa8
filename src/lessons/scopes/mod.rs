//! `?lesson=scopes`: who a synchronisation reaches. The scope tree (invocation, subgroup,
//! workgroup, device, system) drawn with the memory each level shares; message passing with
//! release and acquire at workgroup scope between two workgroups, where the scopes do not
//! cover each other, against device scope and against one workgroup, stepped in the
//! visibility model ([`cases`]); and WGSL's two barriers, both workgroup-scoped, run on the
//! reader's GPU with a neighbour in the same workgroup and in the next one.

pub mod cases;
pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_scopes.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::{Instr, Line, Machine, Program};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/scopes/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const WORKGROUP_BARRIER: Kernel = crate::kernel!("scopes", "scopes_workgroup_barrier.wgsl");
    pub const STORAGE_BARRIER: Kernel = crate::kernel!("scopes", "scopes_storage_barrier.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[WORKGROUP_BARRIER, STORAGE_BARRIER];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "scopes",
    title: "Scopes: who a barrier or a release reaches",
    summary: "Invocation, subgroup, workgroup, device, system: the scope tree drawn, release/acquire at workgroup scope across workgroups stepped, and WGSL's two barriers run within and across workgroups.",
    chapter: super::Chapter::Visibility,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<BarrierReach>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::ScopesLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("scopes", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-scopes.json", text: measured::H100_SCOPES, schema: Some(measured::SCHEMA) }],
};

/// Registers.
pub const VALUE: usize = 0;
pub const SEEN: usize = 1;
pub const OLD: usize = 2;

/// The model's threads: each writes its cell and reads its neighbour's.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=8;

/// The model's memory: one cell per thread, then the count of stale reads.
pub const CELLS: usize = 0;
pub fn stale_cell(threads: usize) -> usize {
    threads
}

/// WGSL's two barriers, with the neighbour an invocation reads in its own workgroup or in the
/// next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierReach {
    /// `workgroupBarrier()`, neighbour in the same workgroup: it waits for the neighbour, but
    /// orders only workgroup memory, and the cells are in a storage buffer.
    WorkgroupBarrier,
    /// `storageBarrier()`, neighbour in the same workgroup: promised.
    StorageBarrier,
    /// `workgroupBarrier()`, neighbour in the next workgroup: the barrier waits for nobody there.
    WorkgroupBarrierAcross,
    /// `storageBarrier()`, neighbour in the next workgroup: the same.
    StorageBarrierAcross,
}

impl BarrierReach {
    pub const ALL: [BarrierReach; 4] = [BarrierReach::StorageBarrier, BarrierReach::WorkgroupBarrier, BarrierReach::StorageBarrierAcross, BarrierReach::WorkgroupBarrierAcross];

    pub fn kernel(self) -> Kernel {
        match self {
            BarrierReach::WorkgroupBarrier | BarrierReach::WorkgroupBarrierAcross => kernels::WORKGROUP_BARRIER,
            BarrierReach::StorageBarrier | BarrierReach::StorageBarrierAcross => kernels::STORAGE_BARRIER,
        }
    }

    pub fn across_workgroups(self) -> bool {
        matches!(self, BarrierReach::WorkgroupBarrierAcross | BarrierReach::StorageBarrierAcross)
    }

    /// Whether WGSL promises every neighbour read fresh: only a barrier over the storage
    /// address space, with the neighbour in the barrier's own workgroup.
    pub fn promises_fresh(self) -> bool {
        self == BarrierReach::StorageBarrier
    }

    /// Written by hand, not lowered: across workgroups a model thread stands for a workgroup.
    /// The model: one workgroup, each thread writing its cell and reading the next thread's.
    /// Across workgroups the barrier waits for nobody the reader depends on, so those models
    /// have none; within one, the model's barrier waits for everyone (it does not tell the two
    /// kinds of memory apart: the GPU panel does).
    pub fn program(self, threads: usize) -> Program {
        let mut lines = vec![
            Line { instr: Instr::FromId { reg: VALUE, add: 1 }, marker: "write" },
            Line { instr: Instr::StoreOwn { array: "cells", base: CELLS, reg: VALUE }, marker: "write" },
        ];
        if !self.across_workgroups() {
            lines.push(Line { instr: Instr::Barrier, marker: "barrier" });
        }
        let end = lines.len() + 3;
        lines.push(Line { instr: Instr::LoadNeighbour { array: "cells", base: CELLS, reg: SEEN }, marker: "read" });
        lines.push(Line { instr: Instr::BranchIfNonZero { reg: SEEN, target: end }, marker: "count" });
        lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: stale_cell(threads), imm: 1 }, marker: "count" });
        let mut memory_names: Vec<String> = (0..threads).map(|t| format!("cells[{t}]")).collect();
        memory_names.push("stale".to_owned());
        Program { lines, memory_names, register_names: vec!["value", "seen", "old"], grids: Vec::new(), workgroup: &[], floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans: Vec::new(), lowered: None }
    }

    pub fn machine(self, threads: usize) -> Machine {
        Machine::new(Arc::new(self.program(threads)), threads, vec![0; threads + 1])
    }
}

impl crate::site::settings::LessonVariant for BarrierReach {
    fn try_this(self) -> &'static str {
        match self {
            BarrierReach::StorageBarrier | BarrierReach::WorkgroupBarrier => words::TRY_STORAGE_BARRIER_OR_WORKGROUP_BARRIER,
            BarrierReach::StorageBarrierAcross | BarrierReach::WorkgroupBarrierAcross => words::TRY_STORAGE_BARRIER_ACROSS_OR_WORKGROUP_BARRIER_ACROSS,
        }
    }

    const NAMES: &'static [&'static str] = &["storage-barrier", "workgroup-barrier", "storage-barrier-across", "workgroup-barrier-across"];
    const DEFAULT: BarrierReach = BarrierReach::StorageBarrier;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        match self {
            BarrierReach::WorkgroupBarrier => "workgroup-barrier",
            BarrierReach::StorageBarrier => "storage-barrier",
            BarrierReach::WorkgroupBarrierAcross => "workgroup-barrier-across",
            BarrierReach::StorageBarrierAcross => "storage-barrier-across",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        BarrierReach::ALL.into_iter().find(|b| b.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        BarrierReach::machine(self, threads)
    }
}

/// What one run counted on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachRun {
    /// Neighbour reads that found the neighbour's value.
    pub fresh: u32,
    /// Neighbour reads that found the cell not yet written.
    pub stale: u32,
    /// Reads that found neither 0 nor the neighbour's value: impossible, for nobody else writes
    /// the cell.
    pub impossible: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachCheck {
    /// Every read found the neighbour's value or 0, and was counted once.
    pub consistent: bool,
    /// No stale read where WGSL promises none.
    pub promise_held: bool,
}

pub fn check(reach: BarrierReach, params: GpuParams, run: ReachRun) -> ReachCheck {
    let consistent = u64::from(run.fresh) + u64::from(run.stale) == u64::from(params.invocations) && run.impossible == 0;
    ReachCheck { consistent, promise_held: !reach.promises_fresh() || run.stale == 0 }
}

/// Why `params` cannot run `reach`, if they cannot.
pub fn layout_problem(reach: BarrierReach, params: GpuParams) -> Option<String> {
    if reach.across_workgroups() && params.workgroups() < 2 {
        return Some(format!(
            "this variant reads a neighbour in the next workgroup, so it needs at least two; {} invocation(s) in workgroups of {} make one: add invocations or shrink the workgroup",
            params.invocations, params.workgroup_size
        ));
    }
    if !reach.across_workgroups() && params.workgroup_size < 2 {
        return Some("a neighbour in the same workgroup needs a workgroup of at least 2".to_owned());
    }
    if params.invocations % params.workgroup_size != 0 {
        return Some(format!("every workgroup must be full, so that each reader has a neighbour: make the invocations ({}) a multiple of the workgroup size ({})", params.invocations, params.workgroup_size));
    }
    None
}

/// The invocation whose cell invocation `mine` reads — the kernels' formula, for the host
/// tests: the next lane of its workgroup, or the same lane of the next workgroup.
pub fn neighbour_of(reach: BarrierReach, params: GpuParams, mine: u32) -> u32 {
    let (size, groups) = (params.workgroup_size, params.workgroups());
    let (group, lane) = (mine / size, mine % size);
    if reach.across_workgroups() {
        ((group + 1) % groups) * size + lane
    } else {
        group * size + (lane + 1) % size
    }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    BarrierReach::ALL.into_iter().map(|b| (b.program(4), b.kernel())).collect()
}
