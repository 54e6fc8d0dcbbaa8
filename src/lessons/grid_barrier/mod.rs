//! `?lesson=grid-barrier`: a barrier across every workgroup of a dispatch, built from an atomic
//! arrival count and a spin. It works while every workgroup runs at once, and deadlocks when
//! some wait for a slot on the GPU that the spinning ones never give up: WGSL promises nothing
//! about workgroups running at the same time. The model draws the GPU's slots as a count the
//! workgroups take and give back; the GPU panel runs the barrier, every spin bounded, over grid
//! sizes from one workgroup to far more than the GPU holds, and the portable answer beside it:
//! two dispatches.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_grid_barrier.rs"));
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

/// This lesson's kernel, a file under `shaders/grid-barrier/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const GRID_BARRIER: Kernel = crate::kernel!("grid-barrier", "grid_barrier.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[GRID_BARRIER];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "grid-barrier",
    title: "A grid barrier, and why it deadlocks",
    summary: "An atomic count and a spin across every workgroup: it works while all run at once and hangs when some wait for a slot. Grid sizes swept on your GPU, every spin bounded, beside two dispatches.",
    chapter: super::Chapter::BeyondWorkgroup,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<GridSync>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::GridBarrierLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("grid-barrier", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-grid-barrier.json", text: measured::H100_GRID_BARRIER, schema: Some(measured::SCHEMA) }],
};

/// Memory cells of the model: the free slots, the arrival count, the counts of give-ups and
/// stale reads, then each workgroup's part.
pub const SLOTS: usize = 0;
pub const ARRIVED: usize = 1;
pub const GAVE_UP: usize = 2;
pub const STALE: usize = 3;
pub const PART: usize = 4;

/// Registers.
pub const FREE: usize = 0;
pub const WANT: usize = 1;
pub const TOOK: usize = 2;
pub const MINE: usize = 3;
pub const SEEN: usize = 4;
pub const TRIES: usize = 5;
pub const GOT: usize = 6;
pub const OLD: usize = 7;

/// The model's threads each stand for a workgroup.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=8;

/// Loads of the arrival count before a model workgroup stops waiting: few, so the give-up
/// that stands for a deadlock is seen.
pub const MODEL_TRIES: i64 = 4;

/// Loads of the arrival count before a workgroup of the real kernel stops waiting.
pub const SPIN_LIMIT: u32 = 4096;

/// The model's GPU slots where fewer than the workgroups.
pub const FEW_SLOTS: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridSync {
    /// The grid barrier on a GPU with a slot for every workgroup: all run at once.
    Resident,
    /// The grid barrier with two slots: the workgroups beyond them wait for a slot that the
    /// spinning ones hold.
    TwoSlots,
    /// The same work in two dispatches, two slots: the end of the first is the barrier.
    TwoDispatches,
}

impl GridSync {
    pub const ALL: [GridSync; 3] = [GridSync::Resident, GridSync::TwoSlots, GridSync::TwoDispatches];

    pub fn kernel(self) -> Kernel {
        kernels::GRID_BARRIER
    }

    /// How many workgroups of `threads` the model's GPU holds at once.
    pub fn slots(self, threads: usize) -> usize {
        match self {
            GridSync::Resident => threads,
            GridSync::TwoSlots | GridSync::TwoDispatches => FEW_SLOTS.min(threads),
        }
    }

    /// Written by hand, not lowered from the kernel: a model thread stands for a whole workgroup.
    pub fn program(self, threads: usize) -> Program {
        let n = threads as i64;
        let mut lines = Vec::new();
        // Take a slot: the GPU's scheduler, drawn as a count of free slots. A workgroup without
        // one has not started; it waits as long as it takes. Where every workgroup has a slot
        // all start at once, and there is nothing to draw.
        let few = self != GridSync::Resident;
        let take_slot = |lines: &mut Vec<Line>| {
            if !few {
                return;
            }
            let start = lines.len();
            lines.push(Line { instr: Instr::Load { reg: FREE, addr: SLOTS }, marker: "slot" });
            lines.push(Line { instr: Instr::BranchIfBelow { reg: FREE, limit: 1, target: start }, marker: "slot" });
            lines.push(Line { instr: Instr::Offset { reg: WANT, from: FREE, imm: -1 }, marker: "slot" });
            lines.push(Line { instr: Instr::CompareExchange { addr: SLOTS, expected: FREE, desired: WANT, old: OLD, exchanged: TOOK }, marker: "slot" });
            lines.push(Line { instr: Instr::BranchIfBelow { reg: TOOK, limit: 1, target: start }, marker: "slot" });
        };
        let leave = |lines: &mut Vec<Line>| {
            if few {
                lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: SLOTS, imm: 1 }, marker: "leave" });
            }
        };
        let read = |lines: &mut Vec<Line>, end: usize| {
            lines.push(Line { instr: Instr::LoadNeighbour { array: "part", base: PART, reg: GOT }, marker: "read" });
            lines.push(Line { instr: Instr::BranchIfNonZero { reg: GOT, target: end }, marker: "check" });
            lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: STALE, imm: 1 }, marker: "check" });
        };
        take_slot(&mut lines);
        lines.push(Line { instr: Instr::FromId { reg: MINE, add: 1 }, marker: "work" });
        lines.push(Line { instr: Instr::StoreOwn { array: "part", base: PART, reg: MINE }, marker: "work" });
        match self {
            GridSync::Resident | GridSync::TwoSlots => {
                lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: ARRIVED, imm: 1 }, marker: "arrive" });
                let wait = lines.len();
                let (count, pass) = (wait + 3, wait + 7);
                let release = pass + 3;
                lines.push(Line { instr: Instr::Load { reg: SEEN, addr: ARRIVED }, marker: "wait" });
                lines.push(Line { instr: Instr::BranchIfBelow { reg: SEEN, limit: n, target: count }, marker: "wait" });
                lines.push(Line { instr: Instr::Jump { target: pass }, marker: "wait" });
                lines.push(Line { instr: Instr::AddImm { reg: TRIES, imm: 1 }, marker: "count" });
                lines.push(Line { instr: Instr::BranchIfBelow { reg: TRIES, limit: MODEL_TRIES, target: wait }, marker: "again" });
                lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: GAVE_UP, imm: 1 }, marker: "give-up" });
                lines.push(Line { instr: Instr::Jump { target: release }, marker: "give-up" });
                debug_assert_eq!(lines.len(), pass);
                read(&mut lines, release);
                debug_assert_eq!(lines.len(), release);
                leave(&mut lines);
            }
            GridSync::TwoDispatches => {
                leave(&mut lines);
                // The end of the first dispatch: every workgroup has finished its part.
                lines.push(Line { instr: Instr::Barrier, marker: "next-dispatch" });
                take_slot(&mut lines);
                let end = lines.len() + 3;
                read(&mut lines, end);
                leave(&mut lines);
            }
        }
        let mut memory_names: Vec<String> = ["free slots", "arrived", "gave_up", "stale"].map(str::to_owned).to_vec();
        memory_names.extend((0..threads).map(|t| format!("part[{t}]")));
        // Short names: the scene writes them in a lane's label.
        let mut spans = Span::runs(&lines, "no slot yet", "slot");
        spans.extend(Span::between(&lines, "spinning", "wait", "again"));
        Program {
            lines,
            memory_names,
            register_names: vec!["free", "want", "took", "mine", "seen", "tries", "got", "old"],
            grids: Vec::new(),
            workgroup: &[],
            floats: &[], packed: &[], masks: &[], mask_lanes: 0,
            spans,
            lowered: None,
        }
    }

    /// The free slots the model starts with: none where every workgroup has one and runs.
    pub fn free_slots(self, threads: usize) -> i64 {
        if self == GridSync::Resident {
            0
        } else {
            self.slots(threads) as i64
        }
    }

    pub fn machine(self, threads: usize) -> Machine {
        let mut memory = vec![0; PART + threads];
        memory[SLOTS] = self.free_slots(threads);
        Machine::new(Arc::new(self.program(threads)), threads, memory)
    }
}

impl crate::site::settings::LessonVariant for GridSync {
    fn try_this(self) -> &'static str {
        match self {
            GridSync::Resident => words::TRY_RESIDENT,
            GridSync::TwoSlots => words::TRY_TWO_SLOTS,
            GridSync::TwoDispatches => words::TRY_TWO_DISPATCHES,
        }
    }

    const NAMES: &'static [&'static str] = &["resident", "two-slots", "two-dispatches"];
    const DEFAULT: GridSync = GridSync::TwoSlots;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;
    /// 64 workgroups of 64: a sweep of 1 to 64 workgroups, quick on a software adapter.
    const GPU_DEFAULT: GpuParams = GpuParams { invocations: 4096, workgroup_size: 64 };

    fn name(self) -> &'static str {
        match self {
            GridSync::Resident => "resident",
            GridSync::TwoSlots => "two-slots",
            GridSync::TwoDispatches => "two-dispatches",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        GridSync::ALL.into_iter().find(|g| g.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        GridSync::machine(self, threads)
    }
}

/// The GPU's two ways: the barrier in one dispatch, or the work split into two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuWay {
    GridBarrier,
    TwoDispatches,
}

/// What one run counted on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridRun {
    pub workgroups: u32,
    /// Workgroups that saw every workgroup arrive (all of them, with two dispatches).
    pub passed: u32,
    /// Workgroups that stopped waiting first.
    pub gave_up: u32,
    /// Reads, after the barrier, of the next workgroup's part that found it unwritten.
    pub stale: u32,
    /// The most loads of the arrival count any workgroup made before it saw everyone.
    pub longest_wait: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridCheck {
    /// Every workgroup passed or gave up; no more stale reads than the invocations that read.
    pub consistent: bool,
    /// What is promised held: with two dispatches, every workgroup passed and no read was stale.
    pub promise_held: bool,
}

pub fn check(way: GpuWay, params: GpuParams, run: GridRun) -> GridCheck {
    let w = params.workgroups();
    let consistent = run.workgroups == w && run.passed + run.gave_up == w && u64::from(run.stale) <= u64::from(run.passed) * u64::from(params.workgroup_size);
    let promise_held = way == GpuWay::GridBarrier || (run.gave_up == 0 && run.stale == 0);
    GridCheck { consistent, promise_held }
}

/// The grid sizes a sweep runs, in workgroups: powers of two from one up to `most`.
pub fn sweep_sizes(most: u32) -> Vec<u32> {
    std::iter::successors(Some(1u32), |&w| w.checked_mul(2)).take_while(|&w| w <= most.max(1)).collect()
}

/// The smallest grid at which some workgroup gave up, from a sweep's runs.
pub fn crossover(runs: &[GridRun]) -> Option<u32> {
    runs.iter().filter(|r| r.gave_up > 0).map(|r| r.workgroups).min()
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    GridSync::ALL.into_iter().map(|g| (g.program(4), g.kernel())).collect()
}
