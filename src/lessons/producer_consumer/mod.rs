//! `?lesson=producer-consumer`: data, then a flag; the consumer waits for the flag, then reads
//! the data. Two halves. What CUDA's ways of writing it promise, run in the visibility model
//! where the reader chooses which write each load reads ([`methods`]); and what a WGSL
//! programmer can do instead, run on the reader's GPU with many producers and consumers at
//! once, every wait bounded, and the stale data reads and give-ups counted.

pub mod export;
pub mod gpu;
pub mod measured;
pub mod methods;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_producer_consumer.rs"));
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

/// This lesson's kernels, each a file under `shaders/producer-consumer/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const RELAXED: Kernel = crate::kernel!("producer-consumer", "producer_consumer_relaxed.wgsl");
    pub const STORAGE_BARRIER: Kernel = crate::kernel!("producer-consumer", "producer_consumer_storage_barrier.wgsl");
    pub const SAME_WORKGROUP: Kernel = crate::kernel!("producer-consumer", "producer_consumer_same_workgroup.wgsl");
    pub const TWO_DISPATCHES: Kernel = crate::kernel!("producer-consumer", "producer_consumer_two_dispatches.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[RELAXED, STORAGE_BARRIER, SAME_WORKGROUP, TWO_DISPATCHES];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "producer-consumer",
    title: "Producer and consumer: data, then a flag",
    summary: "The consumer waits for the flag, then reads the data: CUDA's fences and release/acquire stepped in the visibility model, and WGSL's ways run on your GPU with stale reads counted.",
    chapter: super::Chapter::Visibility,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Handoff>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::ProducerConsumerLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("producer-consumer", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile {
        file: "h100-producer-consumer.json",
        text: measured::H100_PRODUCER_CONSUMER,
        schema: Some(measured::SCHEMA),
    }],
};

/// Registers of the model's threads.
pub const VALUE: usize = 0;
pub const ONE: usize = 1;
pub const FLAG_SEEN: usize = 2;
pub const DATA_SEEN: usize = 3;
pub const TRIES: usize = 4;
pub const OLD: usize = 5;

/// What a producer writes: the value its consumer must read.
pub const MESSAGE: i64 = 42;

/// The model's threads: each produces one message and consumes its neighbour's.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=8;

/// Loads of the flag before a model consumer stops waiting: few, so a give-up can be seen.
pub const MODEL_TRIES: i64 = 4;

/// Loads of the flag before an invocation of the real kernel stops waiting (`spin_limit`).
pub const SPIN_LIMIT: u32 = 4096;

/// Where the model keeps `data` (one cell per thread), then `flag`, then the counts.
pub const DATA: usize = 0;
pub fn flag_base(threads: usize) -> usize {
    DATA + threads
}
pub fn gave_up_cell(threads: usize) -> usize {
    2 * threads
}
pub fn stale_cell(threads: usize) -> usize {
    2 * threads + 1
}

/// The WGSL ways of handing a message over, as the GPU panel runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handoff {
    /// Producer and consumer in different workgroups, atomics only: nothing promised.
    Relaxed,
    /// The same with `storageBarrier()` after the data and after the wait: still nothing
    /// promised, for a barrier orders memory within its own workgroup only.
    StorageBarrier,
    /// Producer and consumer in one workgroup with the same barriers: promised.
    SameWorkgroup,
    /// Every producer in one dispatch, every consumer in the next: promised, and nobody waits.
    TwoDispatches,
}

impl Handoff {
    pub const ALL: [Handoff; 4] = [Handoff::Relaxed, Handoff::StorageBarrier, Handoff::SameWorkgroup, Handoff::TwoDispatches];

    pub fn kernel(self) -> Kernel {
        match self {
            Handoff::Relaxed => kernels::RELAXED,
            Handoff::StorageBarrier => kernels::STORAGE_BARRIER,
            Handoff::SameWorkgroup => kernels::SAME_WORKGROUP,
            Handoff::TwoDispatches => kernels::TWO_DISPATCHES,
        }
    }

    /// Whether a consumer's producer sits in another workgroup.
    pub fn across_workgroups(self) -> bool {
        self != Handoff::SameWorkgroup
    }

    /// Whether WGSL promises that a consumer that saw the flag reads the data.
    pub fn promises_data(self) -> bool {
        matches!(self, Handoff::SameWorkgroup | Handoff::TwoDispatches)
    }

    /// Whether WGSL promises that no consumer waits in vain: only where the flags were all set
    /// by a dispatch that has finished.
    pub fn promises_flag(self) -> bool {
        self == Handoff::TwoDispatches
    }

    /// Written by hand, not lowered: across workgroups a model thread stands for a workgroup.
    /// The model: one workgroup of threads, each writing its message and then waiting for its
    /// neighbour's. Across workgroups a barrier waits for nobody the consumer depends on, so
    /// the storage-barrier model has none, like the relaxed one; in one workgroup the barrier
    /// after the data is what makes it safe; between two dispatches every message is written
    /// before any consumer starts, which the model draws as a barrier across all threads.
    pub fn program(self, threads: usize) -> Program {
        let flag = flag_base(threads);
        let barrier = |marker| Line { instr: Instr::Barrier, marker };
        let mut lines = vec![
            Line { instr: Instr::SetImm { reg: VALUE, value: MESSAGE }, marker: "write-data" },
            Line { instr: Instr::StoreOwn { array: "data", base: DATA, reg: VALUE }, marker: "write-data" },
        ];
        if self == Handoff::SameWorkgroup {
            lines.push(barrier("barrier-write"));
        }
        lines.push(Line { instr: Instr::SetImm { reg: ONE, value: 1 }, marker: "write-flag" });
        lines.push(Line { instr: Instr::StoreOwn { array: "flag", base: flag, reg: ONE }, marker: "write-flag" });
        if self == Handoff::TwoDispatches {
            lines.push(barrier("next-dispatch"));
        }
        // The wait: load the flag until it is set, at most MODEL_TRIES times.
        let wait = lines.len();
        let (after, read) = (wait + 4, wait + 4 + usize::from(self == Handoff::SameWorkgroup) + 3);
        lines.push(Line { instr: Instr::LoadNeighbour { array: "flag", base: flag, reg: FLAG_SEEN }, marker: "wait" });
        lines.push(Line { instr: Instr::BranchIfNonZero { reg: FLAG_SEEN, target: after }, marker: "wait" });
        lines.push(Line { instr: Instr::AddImm { reg: TRIES, imm: 1 }, marker: "count" });
        lines.push(Line { instr: Instr::BranchIfBelow { reg: TRIES, limit: MODEL_TRIES, target: wait }, marker: "again" });
        debug_assert_eq!(lines.len(), after);
        if self == Handoff::SameWorkgroup {
            lines.push(barrier("barrier-read"));
        }
        // A consumer that gave up counts itself and stops; one that saw the flag reads.
        let end = read + 3;
        lines.push(Line { instr: Instr::BranchIfNonZero { reg: FLAG_SEEN, target: read }, marker: "saw-flag" });
        lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: gave_up_cell(threads), imm: 1 }, marker: "give-up" });
        lines.push(Line { instr: Instr::Jump { target: end }, marker: "give-up" });
        debug_assert_eq!(lines.len(), read);
        lines.push(Line { instr: Instr::LoadNeighbour { array: "data", base: DATA, reg: DATA_SEEN }, marker: "read-data" });
        lines.push(Line { instr: Instr::BranchIfNonZero { reg: DATA_SEEN, target: end }, marker: "stale" });
        lines.push(Line { instr: Instr::AtomicAdd { reg: OLD, addr: stale_cell(threads), imm: 1 }, marker: "stale" });
        debug_assert_eq!(lines.len(), end);
        let mut memory_names: Vec<String> = (0..threads).map(|t| format!("data[{t}]")).collect();
        memory_names.extend((0..threads).map(|t| format!("flag[{t}]")));
        memory_names.extend(["gave_up", "stale"].map(str::to_owned));
        // While it loads the flag again and again, a consumer is waiting: the scene says so.
        let spans = Span::between(&lines, "waiting", "wait", "again").into_iter().collect();
        Program {
            lines,
            memory_names,
            register_names: vec!["value", "one", "flag_seen", "data_seen", "tries", "old"],
            grids: Vec::new(),
            workgroup: &[],
            floats: &[], packed: &[], masks: &[], mask_lanes: 0,
            spans,
            lowered: None,
        }
    }

    pub fn machine(self, threads: usize) -> Machine {
        Machine::new(Arc::new(self.program(threads)), threads, vec![0; 2 * threads + 2])
    }
}

impl crate::site::settings::LessonVariant for Handoff {
    fn try_this(self) -> &'static str {
        match self {
            Handoff::Relaxed | Handoff::StorageBarrier => words::TRY_RELAXED_OR_STORAGE_BARRIER,
            Handoff::SameWorkgroup => words::TRY_SAME_WORKGROUP,
            Handoff::TwoDispatches => words::TRY_TWO_DISPATCHES,
        }
    }

    const NAMES: &'static [&'static str] = &["relaxed", "storage-barrier", "same-workgroup", "two-dispatches"];
    const DEFAULT: Handoff = Handoff::Relaxed;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        match self {
            Handoff::Relaxed => "relaxed",
            Handoff::StorageBarrier => "storage-barrier",
            Handoff::SameWorkgroup => "same-workgroup",
            Handoff::TwoDispatches => "two-dispatches",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Handoff::ALL.into_iter().find(|h| h.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        Handoff::machine(self, threads)
    }
}

/// What one run counted on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandoffRun {
    /// Consumers that saw their flag and read the data.
    pub consumed: u32,
    /// Of which, reads of the data that found it not yet written.
    pub stale: u32,
    /// Consumers that stopped waiting without seeing the flag.
    pub gave_up: u32,
    /// The most flag loads any consumer made before it saw the flag.
    pub longest_wait: u32,
}

/// A run held against what is guaranteed and against what the variant promises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandoffCheck {
    /// Whatever the schedule: every consumer read or gave up, no more stale reads than reads,
    /// no wait longer than the bound.
    pub consistent: bool,
    /// What WGSL promises for this variant held: no stale read where the data is promised, no
    /// give-up where the flag is.
    pub promise_held: bool,
}

pub fn check(handoff: Handoff, params: GpuParams, run: HandoffRun) -> HandoffCheck {
    let n = u64::from(params.invocations);
    let consistent = u64::from(run.consumed) + u64::from(run.gave_up) == n && run.stale <= run.consumed && run.longest_wait < SPIN_LIMIT;
    let data_held = !handoff.promises_data() || run.stale == 0;
    let flag_held = !handoff.promises_flag() || run.gave_up == 0;
    HandoffCheck { consistent, promise_held: data_held && flag_held }
}

/// Why `params` cannot run `handoff`, if they cannot: across workgroups a consumer needs
/// another workgroup, in one workgroup a partner.
pub fn layout_problem(handoff: Handoff, params: GpuParams) -> Option<String> {
    if handoff.across_workgroups() && params.workgroups() < 2 {
        return Some(format!(
            "this variant pairs a producer with a consumer in another workgroup, so it needs at least two; {} invocation(s) in workgroups of {} make one: add invocations or shrink the workgroup",
            params.invocations, params.workgroup_size
        ));
    }
    if !handoff.across_workgroups() && params.workgroup_size < 2 {
        return Some("the same-workgroup variant pairs two invocations of one workgroup: the workgroup size must be at least 2".to_owned());
    }
    if params.invocations % params.workgroup_size != 0 {
        return Some(format!("every workgroup must be full, so that each consumer has a producer: make the invocations ({}) a multiple of the workgroup size ({})", params.invocations, params.workgroup_size));
    }
    None
}

/// The invocation whose message invocation `mine` consumes — the kernels' formula, for the
/// host tests: across workgroups, the next workgroup's at the mirrored lane; in one, the lane
/// half a workgroup on.
pub fn producer_of(handoff: Handoff, params: GpuParams, mine: u32) -> u32 {
    let (size, groups) = (params.workgroup_size, params.workgroups());
    let (group, lane) = (mine / size, mine % size);
    if handoff.across_workgroups() {
        ((group + 1) % groups) * size + (size - 1 - lane)
    } else {
        group * size + (lane + size / 2) % size
    }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    Handoff::ALL.into_iter().map(|h| (h.program(4), h.kernel())).collect()
}
