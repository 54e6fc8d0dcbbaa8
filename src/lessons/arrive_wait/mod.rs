//! `?lesson=arrive-wait`: CUDA's split barrier (`cuda::barrier`'s `arrive()` and
//! `wait(token)`) and `cuda::latch`, built in WGSL from workgroup atomics with every wait
//! bounded, against `workgroupBarrier()`, WGSL's one arrive-and-wait. Each invocation writes
//! its cell, arrives, does work that needs nobody else, waits, and reads its neighbour's cell.
//! WGSL promises neither that a waiting invocation sees the others arrive (no forward
//! progress) nor that the neighbour's write is visible after a hand-built wait (relaxed
//! atomics), so the page counts give-ups and stale reads on the reader's GPU.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_arrive_wait.rs"));
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

/// This lesson's kernels, each a file under `shaders/arrive-wait/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const SPLIT: Kernel = crate::kernel!("arrive-wait", "arrive_wait_split.wgsl");
    pub const LATCH: Kernel = crate::kernel!("arrive-wait", "arrive_wait_latch.wgsl");
    pub const WORKGROUP_BARRIER: Kernel = crate::kernel!("arrive-wait", "arrive_wait_workgroup_barrier.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[SPLIT, LATCH, WORKGROUP_BARRIER];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "arrive-wait",
    title: "Arrive, then wait: split barriers and latches",
    summary: "cuda::barrier's arrive and wait(token), and cuda::latch, built from WGSL atomics with every wait bounded, against workgroupBarrier(): give-ups and stale reads counted.",
    chapter: super::Chapter::Visibility,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<ArriveWait>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::ArriveWaitLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("arrive-wait", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-arrive-wait.json", text: measured::H100_ARRIVE_WAIT, schema: Some(measured::SCHEMA) }],
};

/// Registers.
pub const MINE: usize = 0;
pub const TOKEN: usize = 1;
pub const NOW: usize = 2;
pub const OWN: usize = 3;
pub const SEEN: usize = 4;
pub const TRIES: usize = 5;
pub const GOT: usize = 6;
pub const OLD: usize = 7;

/// The model's threads: one workgroup.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=8;

/// Tries before a model thread stops waiting: few, so that a give-up can be seen.
pub const MODEL_TRIES: i64 = 4;

/// Tries before an invocation of the real kernel stops waiting (`MAX_TRIES` in the shaders).
pub const MAX_TRIES: u32 = 20_000;

/// The model's memory starts with each thread's cell.
pub const DATA: usize = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArriveWait {
    /// `cuda::barrier`: arrive (take a ticket; the last opens the next phase), work, then wait
    /// for the phase to move past the token read on arriving.
    Split,
    /// `cuda::latch`: count down, work, then wait for the count to reach zero. Single use: the
    /// count is never reset.
    Latch,
    /// `workgroupBarrier()`: work first, then arrive and wait in one call.
    WorkgroupBarrier,
}

impl ArriveWait {
    pub const ALL: [ArriveWait; 3] = [ArriveWait::Split, ArriveWait::Latch, ArriveWait::WorkgroupBarrier];

    /// The model's shared cells after the threads' own, by name: the count of arrivals (and
    /// the split barrier's phase), then the give-ups.
    pub fn cells(self) -> &'static [&'static str] {
        match self {
            ArriveWait::Split => &["arrived", "phase", "gave_up"],
            ArriveWait::Latch => &["left", "gave_up"],
            ArriveWait::WorkgroupBarrier => &[],
        }
    }

    /// Where the model keeps the cell `name` with `threads` threads.
    pub fn cell(self, threads: usize, name: &str) -> Option<usize> {
        self.cells().iter().position(|c| *c == name).map(|i| threads + i)
    }

    pub fn kernel(self) -> Kernel {
        match self {
            ArriveWait::Split => kernels::SPLIT,
            ArriveWait::Latch => kernels::LATCH,
            ArriveWait::WorkgroupBarrier => kernels::WORKGROUP_BARRIER,
        }
    }

    /// Written by hand: its threads are the kernel's invocations and could step the kernel itself,
    /// which this lesson has not moved to yet (see docs/stepper.md).
    /// The model program for a workgroup of `threads`: the kernel's lines, one step each.
    pub fn program(self, threads: usize) -> Program {
        let n = threads as i64;
        // Cells the variant lacks are never named by its lines.
        let at = |name| self.cell(threads, name).unwrap_or(usize::MAX);
        let (arrived, left, phase, gave_up) = (at("arrived"), at("left"), at("phase"), at("gave_up"));
        let mut lines = vec![
            Line { instr: Instr::FromId { reg: MINE, add: 1 }, marker: "mine" },
            Line { instr: Instr::StoreOwn { array: "data", base: DATA, reg: MINE }, marker: "write" },
        ];
        let work = Line { instr: Instr::LoadOwn { array: "data", base: DATA, reg: OWN }, marker: "work" };
        let read = Line { instr: Instr::LoadNeighbour { array: "data", base: DATA, reg: GOT }, marker: "read" };
        if self == ArriveWait::WorkgroupBarrier {
            lines.push(work);
            lines.push(Line { instr: Instr::Barrier, marker: "barrier" });
            lines.push(read);
            return self.with_names(lines, threads);
        }
        if self == ArriveWait::Split {
            lines.push(Line { instr: Instr::Load { reg: TOKEN, addr: phase }, marker: "token" });
        }
        // Arriving takes a ticket from the count: up from 0 for the barrier, down from
        // everyone for the latch.
        let (count, step) = if self == ArriveWait::Latch { (left, -1) } else { (arrived, 1) };
        lines.push(Line { instr: Instr::AtomicAdd { reg: NOW, addr: count, imm: step }, marker: "arrive" });
        lines.push(Line { instr: Instr::AddImm { reg: NOW, imm: step }, marker: "count" });
        if self == ArriveWait::Split {
            // The last to arrive resets the count for the next phase and opens this one.
            let end = lines.len() + 3;
            lines.push(Line { instr: Instr::IfAtLeast { reg: NOW, limit: n, end }, marker: "last" });
            lines.push(Line { instr: Instr::StoreImm { addr: arrived, value: 0 }, marker: "reset" });
            lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: phase, imm: 1 }, marker: "open" });
        }
        lines.push(work);
        let wait = lines.len();
        lines.push(match self {
            ArriveWait::Split => Line { instr: Instr::Load { reg: SEEN, addr: phase }, marker: "wait" },
            _ => Line { instr: Instr::Load { reg: SEEN, addr: left }, marker: "wait" },
        });
        let after = wait + 4;
        lines.push(match self {
            ArriveWait::Split => Line { instr: Instr::BreakIfDiffers { a: SEEN, b: TOKEN, target: after }, marker: "through" },
            _ => Line { instr: Instr::BranchIfZero { reg: SEEN, target: after }, marker: "through" },
        });
        lines.push(Line { instr: Instr::AddImm { reg: TRIES, imm: 1 }, marker: "tries" });
        lines.push(Line { instr: Instr::BranchIfBelow { reg: TRIES, limit: MODEL_TRIES, target: wait }, marker: "again" });
        debug_assert_eq!(lines.len(), after);
        lines.push(Line { instr: Instr::IfAtLeast { reg: TRIES, limit: MODEL_TRIES, end: after + 2 }, marker: "late" });
        lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: gave_up, imm: 1 }, marker: "give-up" });
        lines.push(read);
        self.with_names(lines, threads)
    }

    fn with_names(self, lines: Vec<Line>, threads: usize) -> Program {
        let mut memory_names: Vec<String> = (0..threads).map(|t| format!("data[{t}]")).collect();
        memory_names.extend(self.cells().iter().map(|c| (*c).to_owned()));
        let register_names = vec!["mine", "token", "now", "own", "seen", "tries", "got", "old"];
        let workgroup: &'static [&'static str] = match self {
            ArriveWait::Split => &["data", "arrived", "phase"],
            ArriveWait::Latch => &["data", "left"],
            ArriveWait::WorkgroupBarrier => &["data"],
        };
        // In the wait loop a thread is waiting for the others; the scene says so on its lane.
        let spans = Span::between(&lines, "waiting", "wait", "again").into_iter().collect();
        Program { lines, memory_names, register_names, grids: Vec::new(), workgroup, floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans, lowered: None }
    }

    pub fn machine(self, threads: usize) -> Machine {
        // Workgroup memory starts zeroed in WGSL: a 0 read from a cell is a write not seen.
        // Set up as the kernels do before their first step: the latch expects every thread.
        let mut memory = vec![0; threads + self.cells().len()];
        if let Some(left) = self.cell(threads, "left") {
            memory[left] = threads as i64;
        }
        Machine::new(Arc::new(self.program(threads)), threads, memory)
    }
}

impl crate::site::settings::LessonVariant for ArriveWait {
    fn try_this(self) -> &'static str {
        match self {
            ArriveWait::Split => words::TRY_SPLIT,
            ArriveWait::Latch => words::TRY_LATCH,
            ArriveWait::WorkgroupBarrier => words::TRY_WORKGROUP_BARRIER,
        }
    }

    const NAMES: &'static [&'static str] = &["split", "latch", "workgroup-barrier"];
    const DEFAULT: ArriveWait = ArriveWait::Split;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        match self {
            ArriveWait::Split => "split",
            ArriveWait::Latch => "latch",
            ArriveWait::WorkgroupBarrier => "workgroup-barrier",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        ArriveWait::ALL.into_iter().find(|v| v.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        ArriveWait::machine(self, threads)
    }
}

/// How a model run ended: (threads that gave up waiting, threads whose neighbour read did not
/// find the neighbour's value). The page's outcome and the model's tests read it alike.
pub fn model_outcome(end: &Machine) -> (i64, usize) {
    let n = end.threads.len();
    let gave_up = end.program().memory_names.iter().position(|c| c == "gave_up").map_or(0, |c| end.memory[c]);
    let stale = end.threads.iter().enumerate().filter(|(t, th)| th.regs[GOT] != ((t + 1) % n + 1) as i64).count();
    (gave_up, stale)
}

/// What one dispatch counted on the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArriveRun {
    /// Workgroups whose last arrival opened their phase (the split barrier; else 0).
    pub opened: u32,
    /// Invocations whose wait ended because the others had arrived.
    pub released: u32,
    /// Invocations that stopped waiting at the bound on tries.
    pub gave_up: u32,
    /// Neighbour reads that did not find the neighbour's value.
    pub stale: u32,
    /// The most tries any invocation spent waiting.
    pub longest_wait: u32,
    /// Each invocation's arrival ticket: 1 for the first of its workgroup to arrive.
    pub tickets: Vec<u32>,
}

/// A run held against what is guaranteed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArriveCheck {
    /// What atomics guarantee whatever the schedule: every invocation was released or gave
    /// up; each workgroup's tickets are 1 to its size, each once; the split barrier's phase
    /// was opened once per workgroup.
    pub consistent: bool,
    /// What only `workgroupBarrier()` promises: nobody gave up and no read was stale. For the
    /// hand-built waits, what this GPU did.
    pub clean: bool,
}

pub fn check(variant: ArriveWait, params: GpuParams, run: &ArriveRun) -> ArriveCheck {
    let n = params.invocations;
    let accounted = u64::from(run.released) + u64::from(run.gave_up) == u64::from(n) && run.stale <= n;
    let size = params.workgroup_size as usize;
    let tickets_ok = run.tickets.len() == n as usize
        && run.tickets.chunks(size).all(|group| {
            let mut seen = vec![false; group.len()];
            group.iter().all(|&t| (1..=group.len() as u32).contains(&t) && !std::mem::replace(&mut seen[t as usize - 1], true))
        });
    let opened_ok = match variant {
        ArriveWait::Split => run.opened == params.workgroups(),
        _ => run.opened == 0,
    };
    ArriveCheck { consistent: accounted && tickets_ok && opened_ok, clean: run.gave_up == 0 && run.stale == 0 }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    ArriveWait::ALL.into_iter().map(|v| (v.program(4), v.kernel())).collect()
}
