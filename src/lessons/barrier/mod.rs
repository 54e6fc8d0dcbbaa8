//! `?lesson=barrier`: each invocation writes its cell of workgroup memory, waits at
//! `workgroupBarrier()`, then reads its neighbour's cell. Without the barrier a read can come
//! before the neighbour's write; with the barrier inside a branch that depends on the thread,
//! the browser's compiler refuses the kernel, and the model shows why.

pub mod across;
#[cfg(not(target_arch = "wasm32"))]
pub mod across_report;
pub mod cost;
#[cfg(not(target_arch = "wasm32"))]
pub mod cost_report;
pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_barrier.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::{Instr, Line, Machine, Program};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/barrier/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const WITH_BARRIER: Kernel = crate::kernel!("barrier", "barrier.wgsl");
    pub const MISSING_BARRIER: Kernel = crate::kernel!("barrier", "barrier_missing.wgsl");
    pub const ACROSS_WORKGROUPS: Kernel = crate::kernel!("barrier", "across_workgroups.wgsl");
    /// Rounds of a neighbour exchange with two barriers a round, or none: what a barrier costs.
    pub const BARRIER_COST: Kernel = crate::kernel!("barrier", "barrier_cost.wgsl");
    /// Shown, and compiled to show the browser's refusal; never dispatched, so not in [`ALL`].
    pub const IN_BRANCH: Kernel = crate::kernel!("barrier", "rejected/barrier_in_branch.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[WITH_BARRIER, MISSING_BARRIER, ACROSS_WORKGROUPS, BARRIER_COST];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "barrier",
    title: "Waiting at the barrier",
    summary: "Write your cell, wait for everyone, read your neighbour's: workgroupBarrier, without it, and inside a branch.",
    chapter: super::Chapter::Barriers,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<BarrierVariant>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::BarrierLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("barrier", report::main), ("across", across_report::main), ("barrier-cost", cost_report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[
        crate::data::measured::MeasuredFile { file: "h100-barrier.json", text: measured::H100_BARRIER, schema: Some(measured::SCHEMA) },
        crate::data::measured::MeasuredFile { file: "h100-across.json", text: measured::H100_ACROSS, schema: Some(measured::ACROSS_SCHEMA) },
        crate::data::measured::MeasuredFile { file: "h100-barrier-cost.json", text: measured::H100_BARRIER_COST, schema: Some(measured::COST_SCHEMA) },
    ],
};

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierVariant {
    With,
    Without,
    /// The barrier inside `if id < n / 2`: only half the threads reach it.
    InBranch,
}

/// Where the model draws `cells` (one cell per thread) and `got` (after it).
pub const CELLS: usize = 0;
pub fn out_base(threads: usize) -> usize {
    CELLS + threads
}

impl BarrierVariant {
    pub fn kernel(self) -> Kernel {
        match self {
            BarrierVariant::With => kernels::WITH_BARRIER,
            BarrierVariant::Without => kernels::MISSING_BARRIER,
            BarrierVariant::InBranch => kernels::IN_BRANCH,
        }
    }

    /// The kernel's own program, lowered from its WGSL when the site was built.
    pub fn lowered(self) -> &'static stepper::Program {
        match self {
            BarrierVariant::With => &crate::stepped::BARRIER,
            BarrierVariant::Without => &crate::stepped::BARRIER_MISSING,
            BarrierVariant::InBranch => &crate::stepped::BARRIER_IN_BRANCH,
        }
    }

    /// The kernel itself for `threads` invocations in one workgroup, drawing `cells` (the
    /// workgroup array, as far as the threads use it) and `got`. Workgroup memory starts zeroed
    /// in WGSL: a 0 read back means the neighbour had not written yet.
    pub fn machine(self, threads: usize) -> Machine {
        let n = threads as u32;
        let setup = kernel::one_workgroup(threads, vec![((0, 0), vec![0; threads]), ((0, 1), vec![0; 2 * threads]), ((0, 2), vec![n])]);
        let show = Show { memory: &["cells", "got"], workgroup_words: threads, values: &["value", "neighbour"], ..Show::default() };
        kernel::machine_or_empty(self.lowered(), self.kernel().source(), &setup, show)
    }
}

/// The ticket protocol of the barrier kernel as a program of its own, for drawing what a GPU
/// recorded: take a ticket from the workgroup's counter on arriving, wait at the barrier, take
/// another on leaving.
pub fn ticket_program() -> Program {
    Program {
        lines: vec![
            Line { instr: Instr::AtomicAdd { reg: 0, addr: 0, imm: 1 }, marker: "arrive" },
            Line { instr: Instr::Barrier, marker: "barrier" },
            Line { instr: Instr::AtomicAdd { reg: 0, addr: 0, imm: 1 }, marker: "depart" },
        ],
        memory_names: vec!["counter".to_owned()],
        register_names: vec!["ticket"],
        grids: Vec::new(),
        workgroup: &["counter"],
        floats: &[], packed: &[], masks: &[], mask_lanes: 0,
        spans: Vec::new(), lowered: None,
    }
}

/// One workgroup's recorded tickets, `(ticket, lane, arriving)` in ticket order, after the
/// first `upto` of them, as a machine of [`ticket_program`]: a lane that has arrived waits at
/// the barrier until the last one arrives, then goes on to leave; one that has left is done.
/// Each lane holds the last ticket it recorded; the counter is one past the last ticket handed
/// out. Only recorded values appear.
pub fn ticket_machine(program: Arc<Program>, events: &[(u32, usize, bool)], lanes: usize, upto: usize) -> Machine {
    use crate::model::ThreadStatus;
    let done = &events[..upto.min(events.len())];
    let arrived = done.iter().filter(|e| e.2).count();
    let released = arrived >= lanes;
    let counter = done.last().map_or(0, |e| i64::from(e.0) + 1);
    let mut machine = Machine::new(program, lanes, vec![counter]);
    for &(ticket, lane, arriving) in done {
        let Some(thread) = machine.threads.get_mut(lane) else { continue };
        thread.regs[0] = i64::from(ticket);
        (thread.pc, thread.status) = match (arriving, released) {
            (true, false) => (1, ThreadStatus::AtBarrier),
            (true, true) => (2, ThreadStatus::Ready),
            (false, _) => (3, ThreadStatus::Done),
        };
    }
    machine.barrier_arrivals = if released { 0 } else { arrived };
    machine
}

impl crate::site::settings::LessonVariant for BarrierVariant {
    fn try_this(self) -> &'static str {
        match self.name() {
            "with" => words::TRY_WITH,
            "without" => words::TRY_WITHOUT,
            "in-branch" => words::TRY_IN_BRANCH,
            _ => "",
        }
    }

    const NAMES: &'static [&'static str] = &["with", "without", "in-branch"];
    const DEFAULT: BarrierVariant = BarrierVariant::With;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        match self {
            BarrierVariant::With => "with",
            BarrierVariant::Without => "without",
            BarrierVariant::InBranch => "in-branch",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        match name {
            "with" => Some(BarrierVariant::With),
            "without" => Some(BarrierVariant::Without),
            "in-branch" => Some(BarrierVariant::InBranch),
            _ => None,
        }
    }

    fn machine(self, threads: usize) -> Machine {
        BarrierVariant::machine(self, threads)
    }
}

pub type BarrierSettings = crate::site::settings::LessonSettings<BarrierVariant>;

/// The value invocation `global` writes, and so the value its left neighbour should read.
pub fn written_by(global: u32) -> u32 {
    global + 1
}

/// What one dispatch read back: each invocation's read, and its two tickets from a workgroup
/// counter, one taken before the barrier (arrival) and one after it (departure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierRun {
    pub got: Vec<u32>,
    pub arrive: Vec<u32>,
    pub depart: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierCheck {
    /// Reads of the neighbour's value as written.
    pub right: u32,
    /// Reads that found the cell still zero: the neighbour had not written yet.
    pub stale: u32,
    /// Reads of anything else: impossible, the cell only ever holds 0 or its value.
    pub impossible: u32,
    /// Stale reads whose neighbour is in the same group of 4 lanes, and across groups.
    pub stale_within_four: u32,
    pub stale_across_four: u32,
    /// Workgroups with a whole set of tickets in which every arrival ticket is below every
    /// departure ticket.
    pub ordered_workgroups: u32,
    pub workgroups: u32,
    /// Workgroups whose tickets are each of 0..2·size exactly once. Without a barrier this
    /// has been seen not to hold: SwiftShader restarts the counter part-way, its zeroing of
    /// workgroup memory not ordered before every lane's first atomic as WGSL requires (a bug
    /// of that implementation, which the kernel's later barrier cannot prevent).
    pub whole_ticket_workgroups: u32,
}

impl BarrierCheck {
    pub fn tickets_whole(&self) -> bool {
        self.whole_ticket_workgroups == self.workgroups
    }
}

pub fn check(params: GpuParams, run: &BarrierRun) -> BarrierCheck {
    let n = params.invocations as usize;
    let w = params.workgroup_size as usize;
    let mut c = BarrierCheck {
        right: 0,
        stale: 0,
        impossible: 0,
        stale_within_four: 0,
        stale_across_four: 0,
        ordered_workgroups: 0,
        workgroups: params.workgroups(),
        whole_ticket_workgroups: 0,
    };
    for (i, &got) in run.got.iter().enumerate().take(n) {
        let (group_start, lane) = (i - i % w, i % w);
        let size = w.min(n - group_start);
        let neighbour_lane = (lane + 1) % size;
        let want = written_by((group_start + neighbour_lane) as u32);
        if got == want {
            c.right += 1;
        } else if got == 0 {
            c.stale += 1;
            if lane / 4 == neighbour_lane / 4 {
                c.stale_within_four += 1;
            } else {
                c.stale_across_four += 1;
            }
        } else {
            c.impossible += 1;
        }
    }
    for start in (0..n).step_by(w.max(1)) {
        let end = (start + w).min(n);
        let (arrive, depart) = (&run.arrive[start..end], &run.depart[start..end]);
        let last_arrival = arrive.iter().max().copied().unwrap_or(0);
        let first_departure = depart.iter().min().copied().unwrap_or(0);
        let mut all: Vec<u32> = arrive.iter().chain(depart).copied().collect();
        all.sort_unstable();
        let whole = all.iter().enumerate().all(|(i, &t)| t == i as u32);
        c.whole_ticket_workgroups += u32::from(whole);
        // Only a whole set of tickets gives an order to judge.
        c.ordered_workgroups += u32::from(whole && last_arrival < first_departure);
    }
    c
}

/// Where each invocation of the storage-buffer demonstration reads, and how the writes and
/// reads are dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Across {
    /// Its neighbour's cell in its own workgroup, after storageBarrier(): always seen.
    WithinWorkgroup,
    /// The same lane's cell in the next workgroup, after storageBarrier(), in one dispatch:
    /// nothing promises the other workgroup has written.
    NextWorkgroupOneDispatch,
    /// The same, with the writes in one dispatch and the reads in the next: always seen.
    NextWorkgroupTwoDispatches,
}

impl Across {
    pub const ALL: [Across; 3] = [Across::WithinWorkgroup, Across::NextWorkgroupOneDispatch, Across::NextWorkgroupTwoDispatches];

    pub fn name(self) -> &'static str {
        match self {
            Across::WithinWorkgroup => "within-workgroup",
            Across::NextWorkgroupOneDispatch => "next-workgroup-one-dispatch",
            Across::NextWorkgroupTwoDispatches => "next-workgroup-two-dispatches",
        }
    }

    pub fn crosses_workgroups(self) -> bool {
        self != Across::WithinWorkgroup
    }

    /// Whether WGSL promises that every read sees its write.
    pub fn guaranteed(self) -> bool {
        self != Across::NextWorkgroupOneDispatch
    }

    /// The cell invocation `id` reads, as the kernel computes it.
    pub fn source(self, params: GpuParams, id: u32) -> u32 {
        let (n, w) = (params.invocations, params.workgroup_size);
        if self.crosses_workgroups() {
            (id + w) % n
        } else {
            let start = id - id % w;
            start + (id % w + 1) % w.min(n - start)
        }
    }
}

/// Reads that found the other invocation's value, found 0 (its write not seen), or found
/// anything else (impossible: a cell holds 0 or its value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AcrossCheck {
    pub right: u32,
    pub stale: u32,
    pub impossible: u32,
}

pub fn check_across(how: Across, params: GpuParams, got: &[u32]) -> AcrossCheck {
    let mut c = AcrossCheck::default();
    for id in 0..params.invocations {
        match got.get(id as usize) {
            Some(&v) if v == written_by(how.source(params, id)) => c.right += 1,
            Some(0) => c.stale += 1,
            _ => c.impossible += 1,
        }
    }
    c
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    [BarrierVariant::With, BarrierVariant::Without, BarrierVariant::InBranch].into_iter().map(|v| (v.machine(4).program().as_ref().clone(), v.kernel())).collect()
}
