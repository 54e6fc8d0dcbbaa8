//! `?lesson=message-passing`: the litmus test behind every flag a GPU program waits on. One
//! invocation writes `data`, then `flag`; another reads `flag`, then `data`. Run as a program
//! of interleaved steps, reading the flag set and the data old is impossible; WGSL's memory
//! model allows it whenever the two are in different workgroups, because every WGSL atomic is
//! relaxed and a barrier orders memory only for its own workgroup.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_message_passing.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::Kernel;
use crate::model::{Instr, Line, Machine, Program};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/message-passing/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const RELAXED: Kernel = crate::kernel!("message-passing", "message_passing_relaxed.wgsl");
    pub const STORAGE_BARRIER: Kernel = crate::kernel!("message-passing", "message_passing_storage_barrier.wgsl");
    pub const WORKGROUP_BARRIER: Kernel = crate::kernel!("message-passing", "message_passing_workgroup_barrier.wgsl");
    pub const SAME_WORKGROUP: Kernel = crate::kernel!("message-passing", "message_passing_same_workgroup.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[RELAXED, STORAGE_BARRIER, WORKGROUP_BARRIER, SAME_WORKGROUP];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "message-passing",
    title: "Message passing and memory order",
    summary:
        "Write data, then a flag; read the flag, then the data. Millions of instances per dispatch, counted on the GPU: can a reader see the flag but old data?",
    chapter: super::Chapter::MemoryOrder,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<MessagePassingVariant>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::MessagePassingLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("message-passing", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile {
        file: "h100-message-passing.json",
        text: measured::H100_MESSAGE_PASSING,
        schema: Some(measured::SCHEMA),
    }],
};

/// Registers of the model's threads.
pub const ONE: usize = 0;
pub const FLAG_SEEN: usize = 1;
pub const DATA_SEEN: usize = 2;

/// The model has two threads: each writes its own message and reads the other's.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=2;
/// Where the model keeps `data` (one cell per thread), then `flag`.
pub const DATA: usize = 0;
pub fn flag_base(threads: usize) -> usize {
    DATA + threads
}

/// What a reader saw, as the pair (flag, data). Its index, `2 × flag + data`, is the slot the
/// kernel counts it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// flag 0, data 0: the reader ran before the writer.
    ReaderFirst,
    /// flag 0, data 1: the reads fell between the writes.
    Interleaved,
    /// flag 1, data 0: the flag arrived before the data it announces.
    Weak,
    /// flag 1, data 1: the writer ran before the reader.
    WriterFirst,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [Outcome::ReaderFirst, Outcome::WriterFirst, Outcome::Interleaved, Outcome::Weak];

    pub fn from_reads(flag: i64, data: i64) -> Outcome {
        match (flag != 0, data != 0) {
            (false, false) => Outcome::ReaderFirst,
            (false, true) => Outcome::Interleaved,
            (true, false) => Outcome::Weak,
            (true, true) => Outcome::WriterFirst,
        }
    }

    /// Where the kernel counts it: `outcomes[2 × flag + data]`.
    pub fn slot(self) -> usize {
        match self {
            Outcome::ReaderFirst => 0,
            Outcome::Interleaved => 1,
            Outcome::Weak => 2,
            Outcome::WriterFirst => 3,
        }
    }

    pub fn reads(self) -> (u32, u32) {
        let s = self.slot() as u32;
        (s / 2, s % 2)
    }

    /// The three classes: sequential (one ran wholly before the other), interleaved,
    /// weak.
    pub fn class(self) -> &'static str {
        match self {
            Outcome::ReaderFirst | Outcome::WriterFirst => "sequential",
            Outcome::Interleaved => "interleaved",
            Outcome::Weak => "weak",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Outcome::ReaderFirst => "flag 0, data 0 — reader first",
            Outcome::WriterFirst => "flag 1, data 1 — writer first",
            Outcome::Interleaved => "flag 0, data 1 — interleaved",
            Outcome::Weak => "flag 1, data 0 — weak",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessagePassingVariant {
    /// Writer and reader in different workgroups; atomic stores and loads, nothing else.
    Relaxed,
    /// The same with `storageBarrier()` between the writes and between the reads.
    StorageBarrier,
    /// The same with `workgroupBarrier()`, which orders only workgroup memory.
    WorkgroupBarrier,
    /// Writer and reader in one workgroup, with `storageBarrier()` in both.
    SameWorkgroup,
}

impl MessagePassingVariant {
    pub const ALL: [MessagePassingVariant; 4] =
        [MessagePassingVariant::Relaxed, MessagePassingVariant::StorageBarrier, MessagePassingVariant::WorkgroupBarrier, MessagePassingVariant::SameWorkgroup];

    pub fn kernel(self) -> Kernel {
        match self {
            MessagePassingVariant::Relaxed => kernels::RELAXED,
            MessagePassingVariant::StorageBarrier => kernels::STORAGE_BARRIER,
            MessagePassingVariant::WorkgroupBarrier => kernels::WORKGROUP_BARRIER,
            MessagePassingVariant::SameWorkgroup => kernels::SAME_WORKGROUP,
        }
    }

    /// Whether the reader of each instance sits in another workgroup than its writer.
    pub fn across_workgroups(self) -> bool {
        self != MessagePassingVariant::SameWorkgroup
    }

    /// Whether WGSL's memory model lets a run end in `outcome`. Across workgroups every outcome
    /// is allowed: all atomics are relaxed and barriers reach one workgroup. Within one, the
    /// first barrier puts every data write before every data read, so the data is always seen.
    pub fn allows(self, outcome: Outcome) -> bool {
        self.across_workgroups() || matches!(outcome, Outcome::Interleaved | Outcome::WriterFirst)
    }

    /// Written by hand, not lowered: across workgroups a model thread stands for a workgroup.
    /// The model runs one workgroup. Across workgroups a barrier waits for nobody the other
    /// thread depends on, so the model of every across-workgroup variant has no barrier; the
    /// same-workgroup variant has both.
    pub fn program(self, threads: usize) -> Program {
        let flag = flag_base(threads);
        let mut lines = vec![
            Line { instr: Instr::SetImm { reg: ONE, value: 1 }, marker: "write-data" },
            Line { instr: Instr::StoreOwn { array: "data", base: DATA, reg: ONE }, marker: "write-data" },
        ];
        let barrier = |marker| Line { instr: Instr::Barrier, marker };
        if !self.across_workgroups() {
            lines.push(barrier("barrier-write"));
        }
        lines.push(Line { instr: Instr::StoreOwn { array: "flag", base: flag, reg: ONE }, marker: "write-flag" });
        lines.push(Line { instr: Instr::LoadNeighbour { array: "flag", base: flag, reg: FLAG_SEEN }, marker: "read-flag" });
        if !self.across_workgroups() {
            lines.push(barrier("barrier-read"));
        }
        lines.push(Line { instr: Instr::LoadNeighbour { array: "data", base: DATA, reg: DATA_SEEN }, marker: "read-data" });
        let mut memory_names: Vec<String> = (0..threads).map(|t| format!("data[{t}]")).collect();
        memory_names.extend((0..threads).map(|t| format!("flag[{t}]")));
        Program { lines, memory_names, register_names: vec!["one", "flag_seen", "data_seen"], grids: Vec::new(), workgroup: &[], floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans: Vec::new(), lowered: None }
    }

    pub fn machine(self, threads: usize) -> Machine {
        Machine::new(Arc::new(self.program(threads)), threads, vec![0; 2 * threads])
    }
}

impl crate::site::settings::LessonVariant for MessagePassingVariant {
    fn try_this(self) -> &'static str {
        words::TRY
    }

    const NAMES: &'static [&'static str] = &["relaxed", "storage-barrier", "workgroup-barrier", "same-workgroup"];
    const DEFAULT: MessagePassingVariant = MessagePassingVariant::Relaxed;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 2;
    /// 65,536 test instances per dispatch: many, and still quick on a software adapter.
    const GPU_DEFAULT: crate::gpu::params::GpuParams = crate::gpu::params::GpuParams { invocations: 1 << 16, workgroup_size: 256 };

    fn name(self) -> &'static str {
        match self {
            MessagePassingVariant::Relaxed => "relaxed",
            MessagePassingVariant::StorageBarrier => "storage-barrier",
            MessagePassingVariant::WorkgroupBarrier => "workgroup-barrier",
            MessagePassingVariant::SameWorkgroup => "same-workgroup",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        MessagePassingVariant::machine(self, threads)
    }
}

pub type MessagePassingSettings = crate::site::settings::LessonSettings<MessagePassingVariant>;

/// What thread `t` of a finished (or stopped) model saw of the message it read.
pub fn model_outcome(m: &Machine, t: usize) -> Outcome {
    let regs = &m.threads[t].regs;
    Outcome::from_reads(regs[FLAG_SEEN], regs[DATA_SEEN])
}

/// Every interleaving of the model's threads, run to the end: how many there are, and how
/// many reads (one per thread per interleaving) ended in each outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interleavings {
    pub runs: u64,
    pub counts: [u64; 4],
}

pub fn every_interleaving(variant: MessagePassingVariant) -> Interleavings {
    fn walk(m: &Machine, out: &mut Interleavings) {
        let ready: Vec<usize> = m.ready_threads().collect();
        if ready.is_empty() {
            out.runs += 1;
            for t in 0..m.threads.len() {
                out.counts[model_outcome(m, t).slot()] += 1;
            }
            return;
        }
        for t in ready {
            let mut next = m.clone();
            if next.step(t).is_ok() {
                walk(&next, out);
            }
        }
    }
    let mut out = Interleavings::default();
    walk(&variant.machine(*MODEL_THREADS.start()), &mut out);
    out
}

/// Counts of the four outcomes, indexed by [`Outcome::slot`], as the GPU left them.
pub type OutcomeCounts = [u64; 4];

/// What a run's counts say, against what the memory model allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LitmusCheck {
    pub total: u64,
    pub expected_total: u64,
    /// Instances that ended in an outcome the memory model forbids for this variant.
    pub forbidden: u64,
}

impl LitmusCheck {
    pub fn ok(&self) -> bool {
        self.total == self.expected_total && self.forbidden == 0
    }
}

pub fn check(variant: MessagePassingVariant, counts: &OutcomeCounts, expected_total: u64) -> LitmusCheck {
    LitmusCheck { total: counts.iter().sum(), expected_total, forbidden: Outcome::ALL.iter().filter(|o| !variant.allows(**o)).map(|o| counts[o.slot()]).sum() }
}

/// How a dispatch lays out its test instances: one per invocation, `workgroups` of `lanes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub workgroups: u32,
    pub lanes: u32,
    /// Step between the lanes a reader picks: odd and coprime with `lanes`, so it permutes them.
    pub lane_step: u32,
    /// Step between the instances whose flags sit side by side: coprime with the instance
    /// count, so an instance's flag lands far from its data.
    pub flag_step: u32,
}

/// The largest number below 1024 coprime with `n` (products with it stay within `u32` for
/// up to 4M instances).
pub fn coprime_step(n: u32) -> u32 {
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (2..1024).rev().find(|&s| gcd(s, n.max(1)) == 1).unwrap_or(1)
}

impl Layout {
    /// The layout of `workgroups` × `lanes` instances, or why the variant cannot run there.
    pub fn new(variant: MessagePassingVariant, workgroups: u32, lanes: u32) -> Result<Layout, String> {
        if variant.across_workgroups() && workgroups < 2 {
            return Err(format!("this variant pairs invocations across workgroups, so it needs at least two; {workgroups} workgroup(s) of {lanes} is one: add invocations or shrink the workgroup"));
        }
        if !variant.across_workgroups() && lanes < 2 {
            return Err("the same-workgroup variant pairs two invocations of one workgroup: the workgroup size must be at least 2".to_owned());
        }
        Ok(Layout { workgroups, lanes, lane_step: coprime_step(lanes), flag_step: coprime_step(workgroups * lanes) })
    }

    pub fn instances(&self) -> u32 {
        self.workgroups * self.lanes
    }

    /// The instance that the invocation at `lane` of the workgroup playing `role` reads —
    /// the same formula as the kernels', for the host tests.
    pub fn reads(&self, variant: MessagePassingVariant, role: u32, lane: u32) -> u32 {
        if variant.across_workgroups() {
            let other = (role + 1 + lane % (self.workgroups - 1)) % self.workgroups;
            other * self.lanes + (lane * self.lane_step) % self.lanes
        } else {
            role * self.lanes + (lane + self.lanes / 2) % self.lanes
        }
    }

    /// Where instance `i` keeps its data and its flag, in the kernels' `locations` array.
    pub fn data_slot(&self, i: u32) -> u32 {
        2 * i
    }
    pub fn flag_slot(&self, i: u32) -> u32 {
        2 * ((i * self.flag_step) % self.instances()) + 1
    }
}

/// A shuffled order of `n` workgroups: workgroup `w` of the dispatch plays `order[w]`, so
/// which hardware workgroups meet changes from run to run.
pub fn shuffled_workgroups(n: u32, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n).collect();
    let mut state = seed;
    for i in (1..order.len()).rev() {
        state = crate::model::splitmix64(state);
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    order
}

/// Loads of a partner's arrival flag before an invocation gives up waiting and runs anyway:
/// the spin lines the two up in time, and its bound keeps a partner that has not started
/// (not resident, or on a GPU that runs workgroups one by one) from hanging the dispatch.
pub const SPIN_LIMIT: u32 = 256;

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    MessagePassingVariant::ALL.into_iter().map(|v| (v.program(2), v.kernel())).collect()
}
